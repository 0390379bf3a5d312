/**
 * The audit trail: every change to an account or a catalogue record writes one row with who, what, when,
 * and the record before and after, in the same transaction as the change.
 */
import type { Executor } from '../../db/client';
import { auditLog } from '../../db/schema/index';

export interface AuditActor {
  id: string | null;
  /** e-mail of a user, 'system', 'cli' or a bench name: kept even if the user is deleted */
  label: string;
  ip?: string;
}

export interface AuditEntry {
  action: 'create' | 'update' | 'delete' | string;
  entity: string;
  entityId: string;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/** Never store secrets in the trail. */
const SECRET_KEYS = new Set(['passwordHash', 'password', 'keyHash', 'token', 'tokenHash', 'secret']);

function scrub(v: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  if (!v) return null;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([k]) => !SECRET_KEYS.has(k))
      .map(([k, val]) => [k, val instanceof Date ? val.toISOString() : val]),
  );
}

export async function recordAudit(tx: Executor, actor: AuditActor, entry: AuditEntry): Promise<void> {
  await tx.insert(auditLog).values({
    actorId: actor.id,
    actorLabel: actor.label,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId,
    before: scrub(entry.before),
    after: scrub(entry.after),
    ip: actor.ip ?? null,
  });
}
