/**
 * Alerts by email, as each user chose on the alerts page (users.alert_mail): each alert at once, a digest of
 * the last day's once a day, or none (the default). Written in the recipient's language.
 */
import { and, eq, gte } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client';
import { alerts, machines, products, users, type AlertRow } from '../../db/schema/index';
import { enqueueMail } from '../../mail/outbox';
import { renderEmail } from '../../mail/layout';
import { translate, type Language } from '../../../shared/i18n/index';
import type { AlertDetail, AlertMailChoice } from '../../../shared/contract/alerts';
import { conditionBegins } from './raise';
import { summaryOf } from './alerts.service';

interface Recipient {
  email: string;
  language: Language;
}

async function recipients(db: Executor, choice: AlertMailChoice): Promise<Recipient[]> {
  const rows = await db
    .select({ email: users.email, language: users.language })
    .from(users)
    .where(and(eq(users.disabled, false), eq(users.alertMail, choice)));
  return rows.map((r) => ({ email: String(r.email), language: r.language }));
}

export type AlertNames = Awaited<ReturnType<typeof namesOf>>;

/** The names an alert's summary is written with. */
export async function namesOf(db: Executor, a: AlertRow) {
  const [p] = a.productId
    ? await db.select({ name: products.name, nameZh: products.nameZh }).from(products).where(eq(products.id, a.productId))
    : [];
  const [m] = a.machineId ? await db.select({ name: machines.name }).from(machines).where(eq(machines.id, a.machineId)) : [];
  return { productName: p ? String(p.name) : null, productNameZh: p?.nameZh || null, machineName: m ? String(m.name) : null };
}

/** One email per user who chose "at once", in the alert's transaction (sent after it commits). */
export async function mailAlertNow(tx: Executor, a: AlertRow, names: AlertNames, baseUrl: string): Promise<void> {
  const to = await recipients(tx, 'instant');
  if (to.length === 0) return;
  for (const r of to) {
    const t = (k: string, p: Record<string, unknown> = {}) => translate(r.language, k, p);
    const summary = summaryOf(r.language, a, a.detail as AlertDetail, names);
    const title = t('alerts.mail.subject', { kind: t(`alerts.kind.${a.kind}`) });
    const { html, text } = renderEmail({
      language: r.language,
      title,
      paragraphs: [summary],
      action: { label: t('alerts.mail.open'), url: `${baseUrl}/alerts?status=open` },
      footer: t('alerts.mail.footer'),
    });
    await enqueueMail(tx, { kind: 'alert', to: r.email, language: r.language, subject: title, text, html, ref: { alertId: a.id } });
  }
}

/**
 * The daily digest: once per UTC day (the first instance to flip the day's condition sends it), the
 * alerts raised in the 24 hours before, to each user who chose it; nothing when none were raised.
 */
export async function mailDailyDigest(db: Db, baseUrl: string, now = new Date()): Promise<number> {
  return db.transaction(async (tx) => {
    if (!(await conditionBegins(tx, `digest:${now.toISOString().slice(0, 10)}`, true))) return 0;
    const to = await recipients(tx, 'digest');
    if (to.length === 0) return 0;
    const since = new Date(now.getTime() - 86_400_000);
    const raised = await tx.select().from(alerts).where(gte(alerts.raisedAt, since)).orderBy(alerts.raisedAt).limit(200);
    if (raised.length === 0) return 0;
    const named = await Promise.all(raised.map(async (a) => ({ a, names: await namesOf(tx, a) })));
    for (const r of to) {
      const t = (k: string, p: Record<string, unknown> = {}) => translate(r.language, k, p);
      const title = t('alerts.mail.digestSubject', { count: raised.length });
      const { html, text } = renderEmail({
        language: r.language,
        title,
        paragraphs: named.map(
          ({ a, names }) => `${t(`alerts.kind.${a.kind}`)}${t('alerts.colon')}${summaryOf(r.language, a, a.detail as AlertDetail, names)}`,
        ),
        action: { label: t('alerts.mail.open'), url: `${baseUrl}/alerts?status=open` },
        footer: t('alerts.mail.footer'),
      });
      await enqueueMail(tx, { kind: 'alert-digest', to: r.email, language: r.language, subject: title, text, html });
    }
    return to.length;
  });
}
