/** Staff accounts, managed by admins. */
import { z } from 'zod';
import { emailField, listQuery } from './common';
import { nameField, newPasswordField, roleField, user } from './auth';

export const staffMember = user.extend({
  createdAt: z.string(),
});
export type StaffMember = z.infer<typeof staffMember>;

export const STAFF_SORTS = ['name', 'email', 'role', 'disabled', 'createdAt'] as const;
export const staffListQuery = listQuery(STAFF_SORTS);

export const staffInput = z.object({
  name: nameField(),
  email: emailField(),
  password: newPasswordField(),
  role: roleField,
});
export type StaffInput = z.input<typeof staffInput>;

/** Change role, name or disabled state; at least one. */
export const staffUpdate = z
  .object({
    name: nameField(),
    role: roleField,
    disabled: z.boolean(),
  })
  .partial()
  .refine((v) => Object.keys(v).length > 0, { error: 'validation.required' });
export type StaffUpdate = z.input<typeof staffUpdate>;

export const staffPasswordReset = z.object({ password: newPasswordField() });
export type StaffPasswordReset = z.input<typeof staffPasswordReset>;
