/**
 * Releasing a delivery (docs/product.md "Orders and deliveries", docs/decisions/0044-delivery-release.md):
 * staff ask once every unit passes the release gate; the certificates naming the order are then issued in
 * the background (release-worker.ts), and the buyer's contacts get one link when the last is stored. A unit's
 * tag corrected after release gives that unit a new certificate version.
 */
import type { Delivery, DeliveryDetail, DeliveryGate } from '../../../shared/contract/orders';
import type { DocumentType } from '../../../shared/contract/settings';
import { AppError } from '../../../shared/errors';
import { formatSerial, parseSerial } from '../../../shared/serial';
import type { Db, Executor } from '../../db/client';
import { isUuid, PG, pgErrorCode } from '../../db/errors';
import { recordAudit, type AuditActor } from '../audit/audit.writer';
import type { IssueInput, IssueResult, OrderCertificate } from '../reports/issue';
import * as repo from './deliveries.repo';
import * as releases from './release.repo';
import { DELIVERY_ENTITY, deliveryGate, deliveryNotFound, getDelivery, tagOfItem } from './deliveries.service';
import { itemsOf } from './purchase-orders.repo';
import { requireWitness } from './witness.service';
import { orderDocumentType } from '../reports/release-rule';

/** The gate holds units: the route answers 409 with the gate itself. */
export class DeliveryHeldError extends AppError {
  constructor(readonly gate: DeliveryGate) {
    super('failed-precondition', 'orders.release.held', { params: { count: gate.held } });
  }
}

/** EN 10204 type of the order → the certificate's document type (a 3.2 names the delivery's witness). */
export function certificateType(orderType: '2.2' | '3.1' | '3.2'): DocumentType {
  return orderDocumentType(orderType);
}

export function orderCertificate(u: releases.UnitToIssue): OrderCertificate {
  return { deliveryUnitId: u.unitId, documentType: certificateType(u.documentType), printed: u.printed };
}

/**
 * Starts the release: 202 with the delivery `releasing`. Asked again while it runs, the same answer (20
 * identical requests start one release); released or cancelled: 409. The gate runs before the delivery is
 * locked (it reads every unit's records), and the status is checked again under the lock.
 */
/** An active unit of a delivery with the order its certificate names, by serial (null: not one of its units). */
export async function deliveryUnitOrder(
  db: Executor,
  deliveryId: string,
  serial: string,
): Promise<{ serial: string; order: OrderCertificate } | null> {
  const unit = await releases.unitWithOrder(db, deliveryId, serial);
  return unit ? { serial: unit.serial, order: orderCertificate(unit) } : null;
}

export async function startRelease(db: Db, actor: AuditActor, id: string): Promise<Delivery> {
  if (!isUuid(id)) throw deliveryNotFound();
  const current = await repo.findDelivery(db, id);
  if (!current) throw deliveryNotFound();
  if (current.status === 'releasing') return current;
  if (current.status !== 'open')
    throw new AppError('failed-precondition', current.status === 'cancelled' ? 'orders.deliveryCancelled' : 'orders.deliveryReleased', {
      params: { number: current.number },
    });
  if (current.unitCount === 0) throw new AppError('failed-precondition', 'orders.release.noUnits', { params: { number: current.number } });
  const customer = (await releases.customerOfDelivery(db, id))!;
  requireWitness(current, customer.documentType);
  const gate = await deliveryGate(db, id);
  if (gate.held > 0) throw new DeliveryHeldError(gate);
  return db.transaction(async (tx) => {
    const d = (await repo.findDelivery(tx, id, true))!;
    if (d.status === 'releasing') return d;
    if (d.status !== 'open') throw new AppError('failed-precondition', 'orders.deliveryReleased', { params: { number: d.number } });
    // Units added between the gate and the lock were not judged: ask again.
    if (d.unitCount !== gate.unitCount) throw new AppError('aborted', 'orders.release.unitsChanged', { params: { number: d.number } });
    await releases.startReleasing(tx, id, actor.label, customer.language);
    const after = (await repo.findDelivery(tx, id))!;
    await recordAudit(tx, actor, {
      action: 'release',
      entity: DELIVERY_ENTITY,
      entityId: id,
      before: { status: d.status },
      after: { status: after.status, language: customer.language, unitCount: after.unitCount },
    });
    return after;
  });
}

export type IssueWithOrder = (db: Db, input: Pick<IssueInput, 'serial' | 'language' | 'order'>) => Promise<IssueResult>;

/**
 * A unit's tag (the buyer's numbering): on an open delivery it is only stored; on a released one the unit
 * gets a new certificate version naming the new tag, which supersedes the old one (its verification then
 * names the new one), and the link serves the new one.
 */
export async function correctUnitTag(
  db: Db,
  issue: IssueWithOrder,
  actor: AuditActor,
  id: string,
  serialInput: string,
  tag: string,
): Promise<DeliveryDetail> {
  const d = isUuid(id) ? await repo.findDelivery(db, id) : undefined;
  if (!d) throw deliveryNotFound();
  if (d.status !== 'open' && d.status !== 'released')
    throw new AppError('failed-precondition', d.status === 'cancelled' ? 'orders.deliveryCancelled' : 'orders.release.running', {
      params: { number: d.number },
    });
  const parsed = parseSerial(serialInput);
  const serial = parsed ? formatSerial(parsed) : '';
  const unit = serial ? await releases.unitWithOrder(db, id, serial) : null;
  if (!unit) throw new AppError('not-found', 'orders.unitNotFound', { params: { serial: serialInput.slice(0, 64), number: d.number } });
  if (unit.printed.tag === tag) return getDelivery(db, id);
  const item = (await itemsOf(db, [d.purchaseOrderId])).find((it) => it.line === unit.printed.item.line);
  if (tag && item && !tagOfItem(item.tags, tag))
    throw new AppError('invalid-argument', 'errors.invalidRequest', {
      fields: [{ field: 'tag', key: 'orders.validation.tagNotOfItem', params: { tag, line: item.line } }],
    });
  const other = tag ? await releases.unitWithTag(db, d.purchaseOrderId, tag) : null;
  if (other && other.unitId !== unit.unitId) throw tagTaken(tag, other.serial);
  try {
    await db.transaction(async (tx) => {
      await releases.setTag(tx, unit.unitId, tag);
      await recordAudit(tx, actor, {
        action: 'correctTag',
        entity: DELIVERY_ENTITY,
        entityId: id,
        before: { serial, tag: unit.printed.tag },
        after: { serial, tag },
      });
    });
  } catch (err) {
    // Another request took the tag between the check and the update.
    if (pgErrorCode(err) === PG.uniqueViolation)
      throw tagTaken(tag, (await releases.unitWithTag(db, d.purchaseOrderId, tag))?.serial ?? '');
    throw err;
  }
  if (d.status === 'released') {
    const language = d.releaseLanguage ?? 'en';
    const corrected = { ...unit, printed: { ...unit.printed, tag } };
    const issued = await issue(db, { serial, language, order: orderCertificate(corrected) });
    if (issued.status !== 'issued') throw new AppError('failed-precondition', 'orders.release.heldNow', { params: { serial } });
    await releases.replaceIssued(db, unit.unitId, issued.report.id);
  }
  return getDelivery(db, id);
}

function tagTaken(tag: string, serial: string): AppError {
  return new AppError('already-exists', 'orders.validation.tagTaken', {
    params: { tag, serial },
    fields: [{ field: 'tag', key: 'orders.validation.tagTaken', params: { tag, serial } }],
  });
}
