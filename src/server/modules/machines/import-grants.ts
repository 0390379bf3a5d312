/**
 * Who may import test records in a bench's name: a grant an admin gives a staff account per bench
 * (machine_import_grants, migration 0019). The CSV import reads it; admins need none.
 */
import { sql } from 'drizzle-orm';
import type { ImportGrants } from '../../../shared/contract/machines';
import { AppError } from '../../../shared/errors';
import { rowsOf, type Db, type Executor } from '../../db/client';
import { isUuid } from '../../db/errors';
import { recordAudit, type AuditActor } from '../audit/audit.writer';
import { MACHINE_ENTITY } from './machines.service';

const notFound = () => new AppError('not-found', 'machineData.machineNotFound');

async function grantsOf(db: Executor, machineId: string): Promise<ImportGrants> {
  const users = rowsOf<{ id: string; name: string; email: string; granted: boolean }>(
    await db.execute(sql`SELECT u.id::text, u.name, u.email::text,
        EXISTS (SELECT 1 FROM machine_import_grants g WHERE g.machine_id = ${machineId}::uuid AND g.user_id = u.id) AS granted
      FROM users u WHERE u.role = 'staff' ORDER BY u.name, u.email`),
  );
  return {
    userIds: users.filter((u) => u.granted).map((u) => u.id),
    candidates: users.map(({ id, name, email }) => ({ id, name, email })),
  };
}

async function machineExists(db: Executor, id: string, lock = false): Promise<boolean> {
  if (!isUuid(id)) return false;
  const rows = rowsOf(await db.execute(sql`SELECT 1 FROM machines WHERE id = ${id}::uuid ${lock ? sql`FOR UPDATE` : sql``}`));
  return rows.length > 0;
}

export async function readImportGrants(db: Db, machineId: string): Promise<ImportGrants> {
  if (!(await machineExists(db, machineId))) throw notFound();
  return grantsOf(db, machineId);
}

/** Replaces the bench's grants with these staff accounts; audited with who was added and removed. */
export async function replaceImportGrants(db: Db, actor: AuditActor, machineId: string, userIds: string[]): Promise<ImportGrants> {
  return db.transaction(async (tx) => {
    if (!(await machineExists(tx, machineId, true))) throw notFound();
    const before = await grantsOf(tx, machineId);
    const wanted = [...new Set(userIds)];
    const staff = new Set(before.candidates.map((c) => c.id));
    const unknown = wanted.findIndex((id) => !staff.has(id));
    if (unknown >= 0) {
      throw new AppError('invalid-argument', 'machineData.grantNotStaff', {
        fields: [{ field: `userIds.${unknown}`, key: 'machineData.grantNotStaff' }],
      });
    }
    await tx.execute(sql`DELETE FROM machine_import_grants WHERE machine_id = ${machineId}::uuid`);
    if (wanted.length > 0) {
      await tx.execute(sql`INSERT INTO machine_import_grants (machine_id, user_id)
        SELECT ${machineId}::uuid, u FROM unnest(${`{${wanted.join(',')}}`}::uuid[]) AS u`);
    }
    const after = await grantsOf(tx, machineId);
    const was = new Set(before.userIds);
    const is = new Set(after.userIds);
    const added = after.userIds.filter((id) => !was.has(id));
    const removed = before.userIds.filter((id) => !is.has(id));
    if (added.length || removed.length) {
      const email = new Map(after.candidates.map((c) => [c.id, c.email]));
      await recordAudit(tx, actor, {
        action: 'update',
        entity: MACHINE_ENTITY,
        entityId: machineId,
        before: { importGrants: before.userIds.map((id) => email.get(id) ?? id) },
        after: { importGrants: after.userIds.map((id) => email.get(id) ?? id) },
      });
    }
    return after;
  });
}
