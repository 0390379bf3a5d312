/**
 * The background work of releases: for each delivery `releasing`, its units' certificates naming the order,
 * a few at a time through the report pool, each recorded as it is stored; then, in one transaction, the
 * delivery becomes `released` and the buyer's link is written to the mail outbox. A server stopped halfway
 * resumes at its next start from the units without a certificate: a unit whose certificate was stored but not
 * yet recorded finds it again by its reuse key, so nothing is issued twice; the link is written only by the
 * transaction that moves the status, so it is sent once. A mail outage only delays the email (the outbox
 * retries it).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Executor } from '../../db/client';
import { recordAudit } from '../audit/audit.writer';
import { enqueueWebhookEvent } from '../webhooks/events';
import type { Wakeup } from '../../lib/wakeup';
import * as releases from './release.repo';
import { DELIVERY_ENTITY } from './deliveries.service';
import { orderCertificate, type IssueWithOrder } from './release.service';

/** What the release's last step does with the buyer's contacts: writes the link mail (delivery-links.ts). */
export type SendReleaseLink = (
  tx: Executor,
  input: { deliveryId: string; recipients: { email: string; language: 'en' | 'zh' }[]; createdBy: string | null },
) => Promise<unknown>;

export interface ReleaseWorkerDeps {
  db: Db;
  issue: IssueWithOrder;
  sendLink: SendReleaseLink;
  wakeup: Wakeup;
  log: FastifyBaseLogger;
  /** wakes the mail workers once a link is queued */
  kickMail: () => void;
  /** units issued at once (the report pool's threads; each also waits for its turn there) */
  concurrency?: number;
  /** how often the queue is looked at without a kick */
  pollMs?: number;
}

const BATCH = 50;
// A pool full of visitors' reports (503) or a database hiccup: the release waits and tries again.
const RETRY_MS = 2_000;

/** Runs until stopped; returns the stop function. */
export function startReleaseWorker(deps: ReleaseWorkerDeps): { stop: () => Promise<void> } {
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      let busy = false;
      try {
        busy = await releaseRound(deps, () => stopped);
      } catch (err) {
        deps.log.warn({ err }, 'delivery release: round failed; trying again');
        await sleep(RETRY_MS);
      }
      if (!busy && !stopped) await deps.wakeup.wait(deps.pollMs ?? 30_000);
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      deps.wakeup.kick();
      await loop;
    },
  };
}

/** One pass over the releasing deliveries; true when work was done (look again at once). */
export async function releaseRound(deps: ReleaseWorkerDeps, stopped: () => boolean = () => false): Promise<boolean> {
  const pending = await releases.releasingDeliveries(deps.db);
  for (const d of pending) {
    if (stopped()) return true;
    await releaseDelivery(deps, d, stopped);
  }
  return pending.length > 0;
}

async function releaseDelivery(
  deps: ReleaseWorkerDeps,
  d: { id: string; language: 'en' | 'zh'; releasedBy: string },
  stopped: () => boolean,
): Promise<void> {
  const { db } = deps;
  // One unit more in flight than the report pool has threads: while a thread renders and signs one
  // certificate, the next unit's data is read and the last one's stored, so the threads never wait on the
  // database. Each runner takes the next unit as it finishes one (no lockstep).
  const inFlight = Math.max(1, deps.concurrency ?? 2) + 1;
  for (;;) {
    if (stopped()) return;
    const units = await releases.unissuedUnits(db, d.id, BATCH);
    if (units.length === 0) break;
    let held: string | null = null;
    let next = 0;
    const runner = async () => {
      while (next < units.length && !held && !stopped()) {
        const u = units[next++]!;
        const result = await deps.issue(db, { serial: u.serial, language: d.language, order: orderCertificate(u) });
        if (result.status === 'issued') await releases.recordIssued(db, d.id, u.unitId, result.report.id);
        else held ??= u.serial;
      }
    };
    await Promise.all(Array.from({ length: Math.min(inFlight, units.length) }, runner));
    if (held) {
      const serial = held;
      const customer = await releases.customerOfDelivery(db, d.id);
      await db.transaction(async (tx) => {
        await releases.stopRelease(tx, d.id, `held:${serial}`);
        // The buyer's systems hear that a unit of their delivery is held (docs/decisions/0066-webhooks.md).
        if (customer)
          await enqueueWebhookEvent(tx, {
            type: 'unit.held',
            customerId: customer.customerId,
            summary: `Unit ${serial} of delivery ${customer.deliveryNumber} (order ${customer.purchaseOrderNumber}) is held: its release has stopped`,
            data: { serial, deliveryId: d.id, deliveryNumber: customer.deliveryNumber, purchaseOrderNumber: customer.purchaseOrderNumber },
          });
      });
      deps.log.warn({ delivery: d.id, serial: held }, 'delivery release stopped: a unit is held now');
      return;
    }
  }
  const customer = await releases.customerOfDelivery(db, d.id);
  const finished = await db.transaction(async (tx) => {
    if (!(await releases.markReleased(tx, d.id))) return false;
    await deps.sendLink(tx, { deliveryId: d.id, recipients: customer?.recipients ?? [], createdBy: d.releasedBy || null });
    // The buyer's systems hear of it in the same transaction (docs/decisions/0066-webhooks.md).
    if (customer)
      await enqueueWebhookEvent(tx, {
        type: 'delivery.released',
        customerId: customer.customerId,
        summary: `Delivery ${customer.deliveryNumber} of order ${customer.purchaseOrderNumber} is released`,
        data: { deliveryId: d.id, deliveryNumber: customer.deliveryNumber, purchaseOrderNumber: customer.purchaseOrderNumber },
      });
    await recordAudit(
      tx,
      { id: null, label: 'system' },
      {
        action: 'released',
        entity: DELIVERY_ENTITY,
        entityId: d.id,
        before: { status: 'releasing' },
        after: { status: 'released', linkSentTo: (customer?.recipients ?? []).map((r) => r.email) },
      },
    );
    return true;
  });
  if (finished) {
    deps.kickMail();
    deps.log.info({ delivery: d.id }, 'delivery released');
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());
