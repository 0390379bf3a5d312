/**
 * Who sends and ends a delivery's links besides the release: staff re-send a new link to the customer's
 * certificate contacts, or revoke every link (each audited in its transaction); a visitor on /search asks
 * for one to an address of the buyer's ("I have a delivery"), answered the same whatever is found.
 */
import { sql } from 'drizzle-orm';
import type { DeliveryDetail } from '../../../shared/contract/orders';
import type { DeliveryLinkRequestInput } from '../../../shared/contract/delivery-links';
import { AppError } from '../../../shared/errors';
import { translate, type Language } from '../../../shared/i18n/index';
import type { Db, Tx } from '../../db/client';
import type { AfterResponse } from '../../lib/after-response';
import { isUuid } from '../../db/errors';
import { recordAudit, type AuditActor } from '../audit/audit.writer';
import { DELIVERY_ENTITY, deliveryNotFound, getDelivery } from './deliveries.service';
import { certificateContacts, deliveryForAddress, linkedDelivery } from './delivery-links.repo';
import { revokeDeliveryLinks, sendDeliveryLink } from './delivery-links';

export interface LinkDeps {
  db: Db;
  publicBaseUrl: string;
  /** wakes the app's mail workers (`app.ctx.mail.kick`) */
  kick: () => void;
}

/** A new link to the customer's contacts who receive certificates; only for a released delivery. */
export async function resendDeliveryLink(deps: LinkDeps, actor: AuditActor, id: string): Promise<DeliveryDetail> {
  await deps.db.transaction(async (tx) => {
    const d = await locked(tx, id);
    if (d.status !== 'released') throw new AppError('failed-precondition', 'deliveryLinks.notReleased', { params: { number: d.number } });
    const recipients = await certificateContacts(tx, d.customer.id);
    if (recipients.length === 0)
      throw new AppError('failed-precondition', 'deliveryLinks.noContact', { params: { customer: d.customer.name } });
    const sent = await sendDeliveryLink(tx, {
      deliveryId: id,
      source: 'staff',
      recipients,
      createdBy: actor.label,
      publicBaseUrl: deps.publicBaseUrl,
    });
    await recordAudit(tx, actor, {
      action: 'sendLink',
      entity: DELIVERY_ENTITY,
      entityId: id,
      after: { linkId: sent!.linkId, source: 'staff', sentTo: recipients.map((r) => r.email) },
    });
  });
  deps.kick();
  return getDelivery(deps.db, id);
}

/** Ends every link of the delivery (the ones sent by the release too). */
export async function revokeLinks(db: Db, actor: AuditActor, id: string): Promise<DeliveryDetail> {
  await db.transaction(async (tx) => {
    await locked(tx, id);
    const revoked = await revokeDeliveryLinks(tx, id);
    await recordAudit(tx, actor, { action: 'revokeLinks', entity: DELIVERY_ENTITY, entityId: id, after: { revoked } });
  });
  return getDelivery(db, id);
}

/**
 * The delivery, its row locked first: a release, a re-send and a revoke of one delivery at the same moment
 * come one after another, never in between (a revoke cannot miss a link being made).
 */
async function locked(tx: Tx, id: string) {
  if (!isUuid(id)) throw deliveryNotFound();
  await tx.execute(sql`SELECT 1 FROM deliveries WHERE id = ${id}::uuid FOR UPDATE`);
  const d = await linkedDelivery(tx, id);
  if (!d) throw deliveryNotFound();
  return d;
}

/**
 * "I have a delivery": when the delivery is released and the address is one of its customer's contacts
 * or at one of its mail domains, a new link is emailed to that address only. The answer is the same
 * message in every case and is decided before anything is looked up: the lookup and the link are work
 * after the response (`later`, lib/after-response.ts), so that the answer's time tells nothing of whether
 * the delivery exists or the address belongs to it, as forgot-password does. The proof-of-work and the rate
 * limits are checked by the route before this runs.
 */
export function requestDeliveryLink(
  deps: LinkDeps & { later: Pick<AfterResponse, 'run'> },
  input: Omit<DeliveryLinkRequestInput, 'challenge'> & { language: Language },
  pageLanguage: Language,
): { message: string } {
  const email = input.email.trim();
  const deliveryNumber = input.deliveryNumber.trim();
  deps.later.run('delivery link request', async () => {
    const found = await deliveryForAddress(deps.db, deliveryNumber, email);
    if (!found.deliveryId || !found.belongs) return;
    const deliveryId = found.deliveryId;
    await deps.db.transaction((tx) =>
      sendDeliveryLink(tx, {
        deliveryId,
        source: 'request',
        recipients: [{ email, language: input.language }],
        createdBy: null,
        publicBaseUrl: deps.publicBaseUrl,
      }),
    );
    deps.kick();
  });
  return { message: translate(pageLanguage, 'deliveryLinks.requestAnswer') };
}
