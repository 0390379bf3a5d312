/**
 * The witness of a 3.2 delivery (docs/decisions/0056-witnessed-certificates.md): the purchaser's or a third
 * party's inspector, recorded while the delivery is open, for an order that asks for EN 10204 3.2 only. The
 * release refuses a 3.2 delivery without one; every certificate of the delivery names it.
 */
import type { Delivery } from '../../../shared/contract/orders';
import type { DeliveryWitness, DeliveryWitnessValues } from '../../../shared/contract/witness';
import { AppError } from '../../../shared/errors';
import type { Db } from '../../db/client';
import { isUuid } from '../../db/errors';
import { recordAudit, type AuditActor } from '../audit/audit.writer';
import * as repo from './deliveries.repo';
import { DELIVERY_ENTITY, deliveryNotFound, notOpen } from './deliveries.service';
import { customerOfDelivery, setWitness } from './release.repo';

export async function recordWitness(db: Db, actor: AuditActor, id: string, v: DeliveryWitnessValues): Promise<Delivery> {
  if (!isUuid(id)) throw deliveryNotFound();
  return db.transaction(async (tx) => {
    const before = await repo.findDelivery(tx, id, true);
    if (!before) throw deliveryNotFound();
    if (before.status !== 'open') throw notOpen(before);
    const order = await customerOfDelivery(tx, id);
    if (order?.documentType !== '3.2')
      throw new AppError('failed-precondition', 'orders.witness.not32', { params: { number: before.number } });
    const witness: DeliveryWitness = { ...v, recordedBy: actor.label, recordedAt: new Date().toISOString() };
    await setWitness(tx, id, witness);
    const after = (await repo.findDelivery(tx, id))!;
    await recordAudit(tx, actor, {
      action: 'witness',
      entity: DELIVERY_ENTITY,
      entityId: id,
      before: { witness: before.witness },
      after: { witness: after.witness },
    });
    return after;
  });
}

/** A 3.2 delivery is released only with its witness: the certificates name them. */
export function requireWitness(d: Delivery, orderType: '2.2' | '3.1' | '3.2'): void {
  if (orderType === '3.2' && !d.witness)
    throw new AppError('failed-precondition', 'orders.release.witnessMissing', { params: { number: d.number } });
}
