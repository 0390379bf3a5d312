/**
 * Retention of visitors' personal data (docs/product.md §3): a search request older than the retention setting
 * (default 365 days) loses its recipient address and client IP, and personal_data_erased_at says when;
 * everything else of it stays (serial, time, status, report id, counts, user agent), so the Searches list
 * and its figures still hold. The finished report emails of those requests lose their recipient too (the
 * outbox keeps its rows); the delivery errors of both lose any address they quote. Each step is one idempotent UPDATE: several instances running it at once clear the same rows once, and a second run finds
 * nothing (the partial indexes of 0008 make that an index probe).
 */
import { and, inArray, isNotNull, lt, or, sql, type AnyColumn } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { mailOutbox, searchRequests, settingsTable } from '../../db/schema/index';
import { REPORT_MAIL_KIND } from './search-mail-outcome';

// Every email address in a text, as PostgreSQL reads it: the same characters as ADDRESS_IN_TEXT of
// src/server/lib/email-address.ts and the scrub of 0011_abuse_rules.sql. Replaced by 'j***@c***'.
const ADDRESS_RE = `([^][:space:]<>"'(),;:@[])[^][:space:]<>"'(),;:@[]*@([^][:space:]<>"'(),;:@.[])[^][:space:]<>"'(),;:@[]*`;
const MASKED = '\\1***@\\2***';
const withoutAddresses = (column: AnyColumn) => sql`regexp_replace(${column}, ${ADDRESS_RE}, ${MASKED}, 'g')`;

export interface RetentionResult {
  /** search requests whose address or IP was cleared */
  requests: number;
  /** report emails whose recipient was cleared */
  emails: number;
}

/** Clears what is older than the setting, as of `now`. */
export async function applySearchRetention(db: Executor, now: Date = new Date()): Promise<RetentionResult> {
  const [setting] = await db.select({ days: settingsTable.searchRetentionDays }).from(settingsTable);
  const days = setting?.days ?? 365;
  const cutoff = new Date(now.getTime() - days * 86_400_000);
  const cleared = await db
    .update(searchRequests)
    .set({ recipientEmail: null, clientIp: null, personalDataErasedAt: now, lastError: withoutAddresses(searchRequests.lastError) })
    .where(and(lt(searchRequests.createdAt, cutoff), or(isNotNull(searchRequests.recipientEmail), isNotNull(searchRequests.clientIp))))
    .returning({ id: searchRequests.id });
  // Only finished emails: a queued or sending one still needs its address (a retry long after the cutoff).
  const emails = await db
    .update(mailOutbox)
    .set({ recipient: '', lastError: withoutAddresses(mailOutbox.lastError) })
    .where(
      and(
        sql`${mailOutbox.kind} = ${REPORT_MAIL_KIND}`,
        sql`${mailOutbox.recipient} <> ''`,
        lt(mailOutbox.createdAt, cutoff),
        inArray(mailOutbox.status, ['sent', 'failed']),
      ),
    )
    .returning({ id: mailOutbox.id });
  return { requests: cleared.length, emails: emails.length };
}
