/**
 * The rules of test benches: unique names, a key shown once, rotation and disabling that take effect at
 * once, and no deletion of a bench that has sent records (it is disabled instead). Every change writes an
 * audit entry in its transaction; no entry ever holds a key or its hash.
 */
import type { Machine, MachineDeleteOutcome, MachineListQuery, MachineWithKey } from '../../../shared/contract/machines';
import { AppError } from '../../../shared/errors';
import type { Db } from '../../db/client';
import { recordAudit, type AuditActor } from '../audit/audit.writer';
import { isUuid, PG, pgErrorCode } from '../../db/errors';
import { newKey } from './machine-keys';
import * as repo from './machines.repo';

/** A bench's key lookup and use, for the machine-data ingest, which never imports machines.repo. */
export { findActiveByKeyHash, holdMachine, noteUse } from './machines.repo';

export const MACHINE_ENTITY = 'machine';

function notFound(): AppError {
  return new AppError('not-found', 'machineData.machineNotFound');
}

function nameTaken(): AppError {
  return new AppError('already-exists', 'machineData.machineNameTaken', {
    fields: [{ field: 'name', key: 'machineData.machineNameTaken' }],
  });
}

/** What the audit log keeps of a bench: the visible key prefix, never the key or its hash. */
function auditShape(m: Machine): Record<string, unknown> {
  return { name: m.name, keyPrefix: m.keyPrefix, disabled: m.disabled };
}

async function uniqueName<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (pgErrorCode(err) === PG.uniqueViolation) throw nameTaken();
    throw err;
  }
}

export function listMachines(db: Db, q: MachineListQuery) {
  return repo.listMachines(db, q);
}

export async function createMachine(db: Db, actor: AuditActor, v: { name: string }): Promise<MachineWithKey> {
  const k = newKey();
  return uniqueName(() =>
    db.transaction(async (tx) => {
      const machine = repo.toMachine(await repo.insertMachine(tx, { name: v.name, keyPrefix: k.keyPrefix, keyHash: k.keyHash }));
      await recordAudit(tx, actor, { action: 'create', entity: MACHINE_ENTITY, entityId: machine.id, after: auditShape(machine) });
      return { machine, key: k.key };
    }),
  );
}

export async function updateMachine(db: Db, actor: AuditActor, id: string, v: { name?: string; disabled?: boolean }): Promise<Machine> {
  if (!isUuid(id)) throw notFound();
  return uniqueName(() =>
    db.transaction(async (tx) => {
      const before = await repo.findMachine(tx, id, true);
      if (!before) throw notFound();
      const after = repo.toMachine((await repo.updateMachine(tx, id, v))!);
      const b = repo.toMachine(before);
      const action = v.disabled !== undefined && v.disabled !== b.disabled ? (v.disabled ? 'disable' : 'enable') : 'update';
      await recordAudit(tx, actor, { action, entity: MACHINE_ENTITY, entityId: id, before: auditShape(b), after: auditShape(after) });
      return after;
    }),
  );
}

/** A new key; the old one stops working when this commits (its hash is gone from the table). */
export async function rotateKey(db: Db, actor: AuditActor, id: string): Promise<MachineWithKey> {
  if (!isUuid(id)) throw notFound();
  const k = newKey();
  return db.transaction(async (tx) => {
    const before = await repo.findMachine(tx, id, true);
    if (!before) throw notFound();
    const machine = repo.toMachine((await repo.updateMachine(tx, id, { keyPrefix: k.keyPrefix, keyHash: k.keyHash }))!);
    await recordAudit(tx, actor, {
      action: 'rotate-key',
      entity: MACHINE_ENTITY,
      entityId: id,
      before: auditShape(repo.toMachine(before)),
      after: auditShape(machine),
    });
    return { machine, key: k.key };
  });
}

/**
 * Deletes a bench that never sent a record; one that did is disabled instead, so that its records keep
 * naming the bench that sent them.
 */
export async function deleteMachine(db: Db, actor: AuditActor, id: string): Promise<MachineDeleteOutcome> {
  if (!isUuid(id)) throw notFound();
  return db.transaction(async (tx) => {
    // The row lock waits for a batch of this bench in flight (it bumps record_count in its transaction).
    const before = await repo.findMachine(tx, id, true);
    if (!before) throw notFound();
    const b = repo.toMachine(before);
    if (b.recordCount > 0 || (await repo.hasRecords(tx, id))) {
      const after = repo.toMachine((await repo.updateMachine(tx, id, { disabled: true }))!);
      await recordAudit(tx, actor, {
        action: 'disable',
        entity: MACHINE_ENTITY,
        entityId: id,
        before: auditShape(b),
        after: auditShape(after),
      });
      return { outcome: 'disabled', recordCount: b.recordCount };
    }
    await repo.deleteMachine(tx, id);
    await recordAudit(tx, actor, { action: 'delete', entity: MACHINE_ENTITY, entityId: id, before: auditShape(b) });
    return { outcome: 'deleted' };
  });
}
