/**
 * The rules of Searches: the address shown in full to admins and masked for everyone else; a request's
 * delivery history (every report email of its group, with who asked for a resend); and the resend itself.
 *
 * Resend: one at a time per request. The rows of the group are locked, and a resend is accepted only while
 * the request's email is sent or failed; accepting it makes the rows queued on the new message in the same
 * transaction. So of 50 resends at once one is accepted and the others, which waited on the lock and then
 * see "queued", are refused (409): one new email, not fifty. Once that email is out, another may be asked.
 */
import { getSettings } from '../settings/settings.service';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { SearchDelivery, SearchListQuery, SearchRequest, SearchRequestDetail } from '../../../shared/contract/searches';
import { AppError } from '../../../shared/errors';
import type { Db, Executor } from '../../db/client';
import { auditLog, mailOutbox, reports, searchRequests } from '../../db/schema/index';
import { enqueueMail } from '../../mail/outbox';
import type { MailHub } from '../../mail/hub';
import { reportFilename } from '../reports/issue';
import { recordAudit, type AuditActor } from '../audit/audit.writer';
import { isUuid } from '../../db/errors';
import { reportMail } from './report-mail';
import { REPORT_MAIL_KIND } from './search-mail-outcome';
import { maskEmail, maskEmailsIn } from '../../lib/email-address';
import { groupPages, listGroups, oneGroup, type GroupRow } from './searches.list';

export const SEARCH_ENTITY = 'searchRequest';

/** Who is looking: admins see visitors' addresses and IPs, staff a mask. */
export interface Viewer {
  fullPersonalData: boolean;
}

const iso = (v: Date | string | null): string | null => (v === null ? null : new Date(v).toISOString());

function toSearchRequest(r: GroupRow, viewer: Viewer): SearchRequest {
  type Serial = SearchRequest['serials'][number];
  const serials: Serial[] = typeof r.serials === 'string' ? (JSON.parse(r.serials) as Serial[]) : r.serials;
  const mailed = serials.some((x) => x.reportId !== null && (x.status === 'sent' || x.status === 'failed'));
  return {
    id: r.id,
    createdAt: iso(r.created_at)!,
    source: r.source,
    serials,
    found: serials.some((x) => x.status !== 'not-found'),
    recipientEmail: r.recipient_email === null ? null : viewer.fullPersonalData ? r.recipient_email : maskEmail(r.recipient_email),
    emailMasked: r.recipient_email !== null && !viewer.fullPersonalData,
    language: r.language,
    termsVersion: r.terms_version,
    status: r.status,
    attempts: Number(r.attempts),
    // Masked when written (mail/retry-policy.ts); again here for rows written before that.
    lastError: maskEmailsIn(r.last_error),
    sentAt: iso(r.sent_at),
    canResend: mailed && r.status !== 'queued' && r.recipient_email !== null,
  };
}

export async function listSearches(db: Executor, q: SearchListQuery, viewer: Viewer) {
  const { rows, ...count } = await listGroups(db, q, !viewer.fullPersonalData);
  return { items: rows.map((r) => toSearchRequest(r, viewer)), ...count };
}

export async function* searchPages(db: Executor, q: SearchListQuery, viewer: Viewer): AsyncGenerator<SearchRequest[]> {
  for await (const page of groupPages(db, q, !viewer.fullPersonalData)) yield page.map((r) => toSearchRequest(r, viewer));
}

function notFound(): AppError {
  return new AppError('not-found', 'searches.notFound');
}

async function deliveriesOf(db: Executor, groupId: string): Promise<SearchDelivery[]> {
  const mails = await db
    .select({
      id: mailOutbox.id,
      createdAt: mailOutbox.createdAt,
      status: mailOutbox.status,
      attempts: mailOutbox.attempts,
      lastError: mailOutbox.lastError,
      sentAt: mailOutbox.sentAt,
    })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.kind, REPORT_MAIL_KIND), sql`${mailOutbox.ref} ->> 'searchRequestGroupId' = ${groupId}`))
    .orderBy(asc(mailOutbox.createdAt), asc(mailOutbox.id));
  const resends = await db
    .select({ label: auditLog.actorLabel, outboxId: sql<string>`${auditLog.after} ->> 'outboxId'` })
    .from(auditLog)
    .where(and(eq(auditLog.entity, SEARCH_ENTITY), eq(auditLog.entityId, groupId), eq(auditLog.action, 'resend')));
  const by = new Map(resends.map((r) => [r.outboxId, r.label]));
  return mails.map((m) => ({
    ...m,
    lastError: maskEmailsIn(m.lastError),
    createdAt: m.createdAt.toISOString(),
    sentAt: iso(m.sentAt),
    resentBy: by.get(m.id) ?? null,
  }));
}

export async function getSearch(db: Executor, id: string, viewer: Viewer): Promise<SearchRequestDetail> {
  const row = isUuid(id) ? await oneGroup(db, id) : null;
  if (!row) throw notFound();
  return {
    ...toSearchRequest(row, viewer),
    deliveries: await deliveriesOf(db, id),
    clientIp: viewer.fullPersonalData ? row.client_ip : null,
    userAgent: row.user_agent,
  };
}

/**
 * A new email with the request's reports, the rows following it; audited. See the file's header. `mail`
 * is the app's mail hub (`app.ctx.mail`), whose workers are woken.
 */
export async function resendSearch(db: Db, mail: MailHub, id: string, actor: AuditActor, viewer: Viewer): Promise<SearchRequestDetail> {
  if (!isUuid(id)) throw notFound();
  const outboxId = await db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(searchRequests)
      .where(eq(searchRequests.groupId, id))
      .orderBy(asc(searchRequests.serial))
      .for('update');
    if (rows.length === 0) throw notFound();
    if (rows.some((r) => r.status === 'queued')) throw new AppError('failed-precondition', 'searches.resendBusy');
    const mailed = rows.filter((r) => r.reportId !== null && (r.status === 'sent' || r.status === 'failed'));
    if (mailed.length === 0) throw new AppError('failed-precondition', 'searches.nothingToResend');
    const to = rows[0]!.recipientEmail;
    if (!to) throw new AppError('failed-precondition', 'searches.addressErased');
    const pdfs = await tx
      .select({ id: reports.id })
      .from(reports)
      .where(
        inArray(
          reports.id,
          mailed.map((r) => r.reportId!),
        ),
      );
    if (pdfs.length !== new Set(mailed.map((r) => r.reportId)).size) throw new AppError('failed-precondition', 'searches.reportGone');
    // The email names the reports; its composer reads their bytes when it is sent (report-mail.ts).
    const issued = mailed.map((r) => ({ serial: r.serial, reportId: r.reportId!, filename: reportFilename(r.serial) }));
    const held = rows.filter((r) => r.status === 'held').map((r) => r.serial);
    const contact = held.length ? (await getSettings(tx)).contact : '';
    const newId = await enqueueMail(tx, reportMail(to, rows[0]!.language, issued, held, id, contact));
    await tx
      .update(searchRequests)
      .set({ outboxId: newId, status: 'queued', attempts: 0, lastError: null, sentAt: null })
      .where(
        inArray(
          searchRequests.id,
          mailed.map((r) => r.id),
        ),
      );
    await recordAudit(tx, actor, {
      action: 'resend',
      entity: SEARCH_ENTITY,
      entityId: id,
      before: { status: mailed[0]!.status, outboxId: mailed[0]!.outboxId, serials: mailed.map((r) => r.serial) },
      after: { status: 'queued', outboxId: newId },
    });
    return newId;
  });
  if (outboxId) mail.kick();
  return getSearch(db, id, viewer);
}
