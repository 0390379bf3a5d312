/**
 * A record's history for its edit screen: the audit entries of one entity id, newest first, each reduced
 * to the fields that changed.
 */
import { and, desc, eq } from 'drizzle-orm';
import type { HistoryEntry } from '../../../shared/contract/record-history';
import type { Executor } from '../../db/client';
import { auditLog, users } from '../../db/schema/index';

const IGNORED = new Set(['id', 'createdAt', 'updatedAt']);
export const HISTORY_LIMIT = 200;

export function diff(before: Record<string, unknown> | null, after: Record<string, unknown> | null): HistoryEntry['changes'] {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const changes: HistoryEntry['changes'] = [];
  for (const field of keys) {
    if (IGNORED.has(field)) continue;
    const b = before?.[field];
    const a = after?.[field];
    if (before && after && JSON.stringify(b) === JSON.stringify(a)) continue;
    changes.push({ field, ...(before ? { before: b ?? null } : {}), ...(after ? { after: a ?? null } : {}) });
  }
  return changes;
}

export async function recordHistory(db: Executor, entity: string, entityId: string): Promise<HistoryEntry[]> {
  const rows = await db
    .select({
      id: auditLog.id,
      at: auditLog.at,
      action: auditLog.action,
      actorId: auditLog.actorId,
      actorLabel: auditLog.actorLabel,
      actorName: users.name,
      before: auditLog.before,
      after: auditLog.after,
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .where(and(eq(auditLog.entity, entity), eq(auditLog.entityId, entityId)))
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(HISTORY_LIMIT);
  return rows.map((r) => ({
    id: Number(r.id),
    at: r.at.toISOString(),
    action: r.action,
    actor: { id: r.actorId, label: r.actorLabel, name: r.actorName ?? null },
    changes: diff(r.before ?? null, r.after ?? null),
  }));
}
