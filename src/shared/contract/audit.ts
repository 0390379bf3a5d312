/** The audit log as admins read it. */
import { z } from 'zod';
import { envelope, listQuery, MSG, noNul } from './common';
import { isDay } from './days';

export const auditEntry = z.object({
  id: z.number().int(),
  at: z.string(),
  actorId: z.string().nullable(),
  actorLabel: z.string(),
  action: z.string(),
  entity: z.string(),
  entityId: z.string(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  ip: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

/** The entities the product audits today (the screen's choices); the API takes any name. */
export const AUDIT_ENTITIES = [
  'product',
  'serialRange',
  'machine',
  'test-record',
  'user',
  'searchRequest',
  'settings',
  'verification-key',
] as const;

const dayField = z
  .string({ error: MSG.invalid })
  .trim()
  .refine(isDay, {
    error: 'validation.date',
  })
  .optional();

/**
 * Newest first unless asked otherwise; `entity` and `entityId` narrow it to one record's history, `actor`
 * to one user (the label kept with each entry: an e-mail, `cli` or `system`, kept after the user is
 * deleted), `from` and `to` to UTC days (both included).
 */
export const auditListQuery = listQuery(['at'] as const)
  .extend({
    order: z.enum(['asc', 'desc'], { error: 'validation.oneOf' }).default('desc'),
    entity: z.string({ error: MSG.invalid }).trim().min(1).max(64).refine(noNul, { error: MSG.invalid }).optional(),
    entityId: z.string({ error: MSG.invalid }).trim().min(1).max(200).refine(noNul, { error: MSG.invalid }).optional(),
    actor: z.string({ error: MSG.invalid }).trim().min(1).max(254).refine(noNul, { error: MSG.invalid }).optional(),
    from: dayField,
    to: dayField,
  })
  .superRefine((v, ctx) => {
    if (v.from && v.to && v.to < v.from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'audit.validation.toBeforeFrom' });
  });
export type AuditListQuery = z.input<typeof auditListQuery>;

/** Everyone who appears in the log (for the user filter), by label. */
export const auditActorsEnvelope = envelope(z.array(z.string()));
