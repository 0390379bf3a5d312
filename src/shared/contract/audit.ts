/** The audit log as admins read it. */
import { z } from 'zod';
import { listQuery, MSG, noNul } from './common';

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

/** Newest first unless asked otherwise; `entity` and `entityId` narrow it to one record's history. */
export const auditListQuery = listQuery(['at'] as const).extend({
  order: z.enum(['asc', 'desc'], { error: 'validation.oneOf' }).default('desc'),
  entity: z.string({ error: MSG.invalid }).trim().min(1).max(64).refine(noNul, { error: MSG.invalid }).optional(),
  entityId: z.string({ error: MSG.invalid }).trim().min(1).max(200).refine(noNul, { error: MSG.invalid }).optional(),
});
export type AuditListQuery = z.input<typeof auditListQuery>;
