/** SQL of test benches. A key is found by its SHA-256 (unique index); the key itself is never stored. */
import { and, asc, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { pageWindow } from '../../../shared/contract/common';
import type { Machine, MachineListQuery, MachineSort } from '../../../shared/contract/machines';
import type { Executor } from '../../db/client';
import { machines, testRecords, type MachineRow } from '../../db/schema/index';
import { likePattern, MAX_OFFSET } from '../../db/errors';
import { naturalSortSql } from '../../db/natural-sort';

const m = machines;

export function toMachine(row: MachineRow): Machine {
  return {
    id: row.id,
    name: row.name,
    keyPrefix: row.keyPrefix,
    disabled: row.disabledAt !== null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    recordCount: Number(row.recordCount),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

// Bench names carry numbers ("Bench 2" before "Bench 10"): src/server/db/natural-sort.ts.
const byName = naturalSortSql(m.name);
const SORTS: Record<MachineSort, SQL[]> = {
  name: [byName, sql`${m.name}`],
  lastUsedAt: [sql`${m.lastUsedAt}`, byName],
  recordCount: [sql`${m.recordCount}`, byName],
  createdAt: [sql`${m.createdAt}`, sql`${m.id}`],
};

// A workshop has tens of benches, not thousands: a plain query with count(*) is the cheap way here.
export async function listMachines(db: Executor, q: MachineListQuery): Promise<{ items: Machine[]; total: number }> {
  const where = q.q ? sql`(${m.name} ilike ${likePattern(q.q)} or ${m.keyPrefix} ilike ${likePattern(q.q)})` : undefined;
  const { limit, offset } = pageWindow(q);
  const dir = q.order === 'desc' ? desc : asc;
  const order = SORTS[q.sort ?? 'name'].map((e) => dir(e));
  const [items, [count]] = await Promise.all([
    offset > MAX_OFFSET
      ? []
      : db
          .select()
          .from(m)
          .where(where)
          .orderBy(...order)
          .limit(limit)
          .offset(offset),
    db
      .select({ n: sql<string>`count(*)` })
      .from(m)
      .where(where),
  ]);
  return { items: items.map(toMachine), total: Number(count?.n ?? 0) };
}

export async function findMachine(db: Executor, id: string, forUpdate = false): Promise<MachineRow | undefined> {
  const q = db.select().from(m).where(eq(m.id, id)).limit(1);
  const [row] = forUpdate ? await q.for('update') : await q;
  return row;
}

/** The enabled bench holding this key hash: one step on the unique index. */
export async function findActiveByKeyHash(db: Executor, keyHash: Buffer): Promise<{ id: string; name: string } | undefined> {
  const [row] = await db
    .select({ id: m.id, name: m.name })
    .from(m)
    .where(and(eq(m.keyHash, keyHash), isNull(m.disabledAt)))
    .limit(1);
  return row;
}

export async function insertMachine(db: Executor, v: { name: string; keyPrefix: string; keyHash: Buffer }): Promise<MachineRow> {
  const [row] = await db.insert(m).values(v).returning();
  return row!;
}

export async function updateMachine(
  db: Executor,
  id: string,
  v: { name?: string; disabled?: boolean; keyPrefix?: string; keyHash?: Buffer },
): Promise<MachineRow | undefined> {
  const [row] = await db
    .update(m)
    .set({
      ...(v.name !== undefined ? { name: v.name } : {}),
      // Disabling keeps the first time it was disabled; enabling clears it.
      ...(v.disabled !== undefined ? { disabledAt: v.disabled ? sql`coalesce(${m.disabledAt}, now())` : null } : {}),
      ...(v.keyHash ? { keyHash: v.keyHash, keyPrefix: v.keyPrefix } : {}),
      updatedAt: sql`now()`,
    })
    .where(eq(m.id, id))
    .returning();
  return row;
}

export async function deleteMachine(db: Executor, id: string): Promise<void> {
  await db.delete(m).where(eq(m.id, id));
}

/**
 * Holds the bench row against deletion until the transaction ends (what a foreign key would take); false
 * when the bench is gone. KEY SHARE does not block the row's other updates (last_used_at, record_count).
 */
export async function holdMachine(db: Executor, id: string): Promise<boolean> {
  const rows = await db.select({ id: m.id }).from(m).where(eq(m.id, id)).for('key share');
  return rows.length > 0;
}

/** After an accepted batch: one UPDATE of the bench's row (record_count follows by trigger). */
export async function noteUse(db: Executor, id: string): Promise<void> {
  await db
    .update(m)
    .set({ lastUsedAt: sql`now()` })
    .where(eq(m.id, id));
}

/** Whether any record names the bench (record_count is kept per batch; this is the belt to its braces). */
export async function hasRecords(db: Executor, id: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql`1` })
    .from(testRecords)
    .where(eq(testRecords.machineId, id))
    .limit(1);
  return row !== undefined;
}
