/** Staff accounts, managed by admins. */
import { z } from 'zod';
import { emailField, listQuery, optionalText } from './common';
import { LINE_BREAK, noLineBreak, printable } from './products';
import { nameField, newPasswordField, roleField, user } from './auth';

export const staffMember = user.extend({
  createdAt: z.string(),
  /** the SHA-256 of the inspector's stamp image (hex; null: none), its address's version */
  stampSha256: z.string().nullable(),
});
export type StaffMember = z.infer<typeof staffMember>;

export const STAFF_SORTS = ['name', 'email', 'role', 'disabled', 'createdAt'] as const;
export const staffListQuery = listQuery(STAFF_SORTS);

export const INSPECTOR_TITLE_MAX = 120;
/** The title printed beside an authorised inspector's name on a certificate, e.g. "QA Manager". */
export const inspectorTitleField = () =>
  optionalText(INSPECTOR_TITLE_MAX).refine(noLineBreak, LINE_BREAK).refine(printable, { error: 'validation.invalid' });
/** The same without a default, so that a change leaving the title out keeps it. */
const titleChange = () =>
  z
    .string({ error: 'validation.invalid' })
    .trim()
    .max(INSPECTOR_TITLE_MAX, { error: 'validation.tooLong' })
    .refine(noLineBreak, LINE_BREAK)
    .refine(printable, { error: 'validation.invalid' });
const inspectorField = () => z.boolean({ error: 'validation.invalid' });

/** An authorised inspector needs a title (both given, or the merged account on the server). */
export function inspectorRules(v: { inspector?: boolean; inspectorTitle?: string }, ctx: z.RefinementCtx): void {
  if (v.inspector === true && v.inspectorTitle !== undefined && v.inspectorTitle.trim() === '')
    ctx.addIssue({ code: 'custom', path: ['inspectorTitle'], message: 'staff.validation.inspectorTitleRequired' });
}

export const staffInput = z
  .object({
    name: nameField(),
    email: emailField(),
    password: newPasswordField(),
    role: roleField,
    inspector: inspectorField().default(false),
    inspectorTitle: inspectorTitleField(),
  })
  .superRefine(inspectorRules);
export type StaffInput = z.input<typeof staffInput>;

/** Change role, name or disabled state; at least one. */
export const staffUpdate = z
  .object({
    name: nameField(),
    role: roleField,
    disabled: z.boolean(),
    inspector: inspectorField(),
    inspectorTitle: titleChange(),
  })
  .partial()
  .refine((v) => Object.keys(v).length > 0, { error: 'validation.required' })
  .superRefine(inspectorRules);
export type StaffUpdate = z.input<typeof staffUpdate>;

export const staffPasswordReset = z.object({ password: newPasswordField() });
export type StaffPasswordReset = z.input<typeof staffPasswordReset>;

/**
 * An inspector's stamp image: PNG or JPEG, at most 512 KB and 1500 pixels a side. It prints at most 100 × 50
 * points, so 1500 pixels is sharper than any print.
 */
export const STAMP_MAX_BYTES = 512 * 1024;
export const STAMP_MAX_PIXELS = 1500;
