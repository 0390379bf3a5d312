/**
 * The buyer's link to a released delivery (docs/product.md, "Orders and deliveries"): 32 random bytes in
 * base64url, of which only the SHA-256 is stored (migration 0021), emailed to the buyer's addresses. The
 * release sends the first one (POST /api/v1/deliveries/{id}/release), staff may send a new one or end them
 * all, and a contact may ask for one on /search. A link opens the delivery's index and its ZIP until it is
 * revoked; it opens only a released delivery.
 */
import type { Language } from '../../../shared/i18n/index';
import type { Executor } from '../../db/client';
import { randomToken, sha256 } from '../../lib/crypto';
import { enqueueMail } from '../../mail/outbox';
import { deliveryLinkMail, dropQueuedLinkMail } from './delivery-link-mail';
import * as repo from './delivery-links.repo';

export type { LinkedDelivery } from './delivery-links.repo';

/** delivery_links.sent_to's CHECK (migration 0021) */
const SENT_TO_MAX = 4000;

function sentToOf(emails: string[]): string {
  let out = '';
  for (const e of emails) {
    const next = out ? `${out},${e}` : e;
    if (next.length > SENT_TO_MAX) break;
    out = next;
  }
  return out;
}

/**
 * Makes a link and queues one email per recipient (each in its own language), in the caller's
 * transaction: the link and its emails are stored together or not at all. Null when there is no
 * recipient (nothing is stored). The caller wakes the mail workers after committing (`app.ctx.mail.kick()`);
 * otherwise they find the emails at their next poll. The link (`${publicBaseUrl}/search?delivery=<token>`)
 * is written into each email when it is sent (delivery-link-mail.ts).
 */
export async function sendDeliveryLink(
  tx: Executor,
  input: {
    deliveryId: string;
    source: 'release' | 'staff' | 'request';
    recipients: { email: string; language: 'en' | 'zh' }[];
    createdBy: string | null;
    publicBaseUrl: string;
  },
): Promise<{ linkId: string } | null> {
  const seen = new Set<string>();
  const recipients = input.recipients.filter((r) => {
    const k = r.email.trim().toLowerCase();
    if (!k || seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  if (recipients.length === 0) return null;
  const delivery = await repo.linkedDelivery(tx, input.deliveryId);
  if (!delivery) throw new Error(`sendDeliveryLink: no delivery ${input.deliveryId}`);
  const token = randomToken(32);
  const linkId = await repo.insertLink(tx, {
    deliveryId: input.deliveryId,
    hashHex: sha256(token),
    source: input.source,
    sentTo: sentToOf(recipients.map((r) => r.email.trim())),
    createdBy: input.createdBy,
  });
  for (const r of recipients) {
    await enqueueMail(
      tx,
      deliveryLinkMail(delivery, r.email.trim(), r.language as Language, input.source, {
        id: linkId,
        token,
        publicBaseUrl: input.publicBaseUrl,
      }),
    );
  }
  return { linkId };
}

/** Ends every live link of the delivery, and drops the link emails still waiting; how many links were live. */
export async function revokeDeliveryLinks(tx: Executor, deliveryId: string): Promise<number> {
  const n = await repo.revokeLinks(tx, deliveryId);
  await dropQueuedLinkMail(tx, deliveryId);
  return n;
}

/**
 * The released delivery a live link opens, or null. Whatever the text, it is hashed and looked up through
 * the unique index on the hash: a malformed token costs the same as an unknown one (no early answer on its
 * shape), and a revoked link or a delivery no longer released is not found either.
 */
export async function findDeliveryByToken(db: Executor, token: string): Promise<repo.LinkedDelivery | null> {
  return (await repo.deliveryByTokenHash(db, sha256(token))) ?? null;
}
