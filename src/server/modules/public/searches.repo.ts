/**
 * Search requests (docs/product.md §3): what the public Test Report Center was asked, by whom and what became
 * of it. Written by the public module, followed by the outbox through search-mail-outcome.ts, listed to
 * staff later (the Searches screen).
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { searchRequests, type NewSearchRequest, type SearchRequestRow } from '../../db/schema/index';

/** Longest user agent kept: enough to tell browsers apart, not a place to store arbitrary text. */
export const USER_AGENT_MAX = 512;

export function clipUserAgent(ua: string | undefined): string | null {
  if (!ua) return null;
  // PostgreSQL text cannot hold U+0000; a header could carry it only by mistake, so it is dropped.
  return ua.replaceAll('\u0000', '').slice(0, USER_AGENT_MAX);
}

export async function insertSearchRequests(tx: Executor, rows: NewSearchRequest[]): Promise<SearchRequestRow[]> {
  if (rows.length === 0) return [];
  return tx.insert(searchRequests).values(rows).returning();
}

/**
 * Not-found lookups, written in bulk by the lookup's recorder: five arrays unnested in one statement, nothing
 * read back. (Drizzle's multi-row insert made a parameter per cell and returned every row: for the thousand
 * rows of a busy second, a few percent of the public lookup's CPU.)
 */
export async function insertNotFoundLookups(db: Executor, rows: NewSearchRequest[]): Promise<void> {
  if (rows.length === 0) return;
  const col = (f: (r: NewSearchRequest) => string | null | undefined) => sql.param(rows.map((r) => f(r) ?? null));
  await db.execute(sql`INSERT INTO search_requests (id, group_id, source, serial, language, status, client_ip, user_agent)
    SELECT t.id, t.id, 'lookup', t.serial, t.language, 'not-found', t.client_ip, t.user_agent
    FROM unnest(${col((r) => r.id)}::uuid[], ${col((r) => r.serial)}::text[], ${col((r) => r.language)}::text[],
      ${col((r) => r.clientIp)}::text[], ${col((r) => r.userAgent)}::text[]) AS t (id, serial, language, client_ip, user_agent)`);
}

export async function searchRequestsOfGroup(db: Executor, groupId: string): Promise<SearchRequestRow[]> {
  return db
    .select()
    .from(searchRequests)
    .where(eq(searchRequests.groupId, groupId))
    .orderBy(searchRequests.createdAt, searchRequests.serial);
}

/** The rows an email carried, made to follow what became of it. */
export async function followMail(
  tx: Executor,
  outboxId: string,
  set: Pick<SearchRequestRow, 'status' | 'attempts' | 'lastError' | 'sentAt'>,
): Promise<void> {
  await tx
    .update(searchRequests)
    .set(set)
    .where(and(eq(searchRequests.outboxId, outboxId), inArray(searchRequests.status, ['queued', 'sent', 'failed'])));
}
