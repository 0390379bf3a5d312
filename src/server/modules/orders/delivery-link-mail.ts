/**
 * The email that carries a delivery's link to one of the buyer's addresses, in that recipient's language:
 * customer, PO number, delivery number, unit count and the link. The token never sits in a stored body:
 * the outbox row is queued with a stand-in body and the token in its `ref`; the composer writes the real
 * body when the message leaves, and the outcome handler takes the token out of the row once the message is
 * sent or has failed for good. So the mail_outbox table holds a usable link only while the message waits,
 * and the .eml fallback (no SMTP_URL: copies kept on this server's disk) never holds one at all, as the
 * password reset does (src/server/modules/auth/password-reset.ts).
 */
import { sql } from 'drizzle-orm';
import { translate, type Language } from '../../../shared/i18n/index';
import type { Db, Executor } from '../../db/client';
import type { OutboxRow } from '../../db/schema/index';
import type { ComposedMail, ComposeOptions } from '../../mail/composers';
import type { MailHub } from '../../mail/hub';
import { renderEmail } from '../../mail/layout';
import type { NewMail } from '../../mail/outbox';
import type { MailOutcomeHandler } from '../../mail/outcomes';
import { linkedDelivery, linkIsLive, type LinkedDelivery, type LinkSource } from './delivery-links.repo';

export const DELIVERY_LINK_MAIL_KIND = 'delivery-link';

/** The page a link opens (on the public host name, where only /search is served: lib/public-host.ts). */
export function deliveryLinkUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl}/search?delivery=${token}`;
}

type LinkState = { url: string } | 'pending' | 'withheld';

function content(d: LinkedDelivery, language: Language, source: LinkSource, state: LinkState): ComposedMail & { subject: string } {
  const t = (key: string, params?: Record<string, unknown>) => translate(language, `deliveryLinks.email.${key}`, params);
  const names = { customer: d.customer.name, po: d.purchaseOrder.number, delivery: d.number, count: d.unitCount };
  const subject = t('subject', names);
  const body = [t('greeting'), t('body', names), t('keep')];
  const linkPart =
    typeof state === 'object' ? { paragraphs: body, action: { label: t('action'), url: state.url } } : { paragraphs: [...body, t(state)] };
  const footer = t(source === 'request' ? 'requested' : 'contact', names);
  const { html, text } = renderEmail({ language, title: subject, footer, ...linkPart });
  return { subject, text, html };
}

/** The outbox row of one recipient's email: a stand-in body; the token waits in `ref` for the composer. */
export function deliveryLinkMail(
  d: LinkedDelivery,
  to: string,
  language: Language,
  source: LinkSource,
  link: { id: string; token: string; publicBaseUrl: string },
): NewMail {
  const { subject, text, html } = content(d, language, source, 'pending');
  return {
    kind: DELIVERY_LINK_MAIL_KIND,
    to,
    language,
    subject,
    text,
    html,
    ref: { deliveryId: d.id, deliveryLinkId: link.id, source, token: link.token, baseUrl: link.publicBaseUrl },
  };
}

/**
 * The email as sent: with its link while the link is live; null (the message ends as failed) when the
 * link was revoked or the delivery is no longer released meanwhile.
 */
export async function composeDeliveryLinkMail(
  db: Db,
  /** the app's PUBLIC_BASE_URL, for rows queued without their own */
  publicBaseUrl: string,
  row: OutboxRow,
  options: ComposeOptions,
): Promise<ComposedMail | null> {
  const { deliveryId, deliveryLinkId, token } = row.ref;
  const source = (row.ref.source ?? 'release') as LinkSource;
  if (!deliveryId || !deliveryLinkId || !token || !(await linkIsLive(db, deliveryLinkId))) return null;
  const d = await linkedDelivery(db, deliveryId);
  if (!d) return null;
  const base = row.ref.baseUrl || publicBaseUrl;
  return content(d, row.language, source, options.keepsCopy ? 'withheld' : { url: deliveryLinkUrl(base, token) });
}

/** Takes the token out of the row once it can no longer be sent (sent, or failed for good). */
export const forgetDeliveryLinkToken: MailOutcomeHandler = async (row, outcome, tx) => {
  if (outcome.status === 'retrying') return;
  await tx.execute(sql`UPDATE mail_outbox SET ref = ref - 'token' WHERE id = ${row.id}::uuid`);
};

/** The emails of a delivery's links still waiting: they end as failed, and their tokens are dropped. */
export async function dropQueuedLinkMail(tx: Executor, deliveryId: string): Promise<void> {
  await tx.execute(sql`UPDATE mail_outbox SET status = 'failed', ref = ref - 'token', locked_until = NULL,
      last_error = 'No longer needed: the delivery''s links were revoked'
    WHERE kind = ${DELIVERY_LINK_MAIL_KIND} AND status = 'queued' AND ref->>'deliveryId' = ${deliveryId}`);
}

/** Registers the composer and the outcome handler on the app's mail hub; returns the function that removes both. */
export function registerDeliveryLinkMail(mail: MailHub, publicBaseUrl: string): () => void {
  const stopComposing = mail.onCompose(DELIVERY_LINK_MAIL_KIND, (db, row, options) =>
    composeDeliveryLinkMail(db, publicBaseUrl, row, options),
  );
  const stopFollowing = mail.onOutcome(DELIVERY_LINK_MAIL_KIND, forgetDeliveryLinkToken);
  return () => {
    stopComposing();
    stopFollowing();
  };
}
