/**
 * The Searches list and its CSV export: one item per public request (the rows of a group, one per serial).
 * A page is chosen among rows walked in created_at order (the rows of a group share it: one statement
 * wrote them), distinct by group, then only those groups are aggregated, so a page does not aggregate the
 * whole table.
 */
import { and, eq, gte, ilike, lt, sql, type SQL } from 'drizzle-orm';
import { pageWindow } from '../../../shared/contract/common';
import type { SearchListQuery, SearchStatus } from '../../../shared/contract/searches';
import { TOTAL_COUNT_LIMIT } from '../../../shared/contract/machine-data';
import { rowsOf, type Executor } from '../../db/client';
import { searchRequests } from '../../db/schema/index';
import { MAX_OFFSET } from '../../db/errors';

const s = searchRequests;
const DAY = 86_400_000;

type Filter = Omit<SearchListQuery, 'page' | 'pageSize' | 'sort' | 'order'>;

/** `%` and `_` typed by a user are letters, not wildcards. */
const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** `exactEmail`: staff may only name a whole address (see searchListQuery). */
export function whereOf(q: Filter, exactEmail: boolean): SQL | undefined {
  const parts: (SQL | undefined)[] = [];
  for (const text of [q.q, q.serial]) if (text) parts.push(ilike(s.serial, likeText(text)));
  if (q.status) parts.push(eq(s.status, q.status));
  if (q.email) parts.push(exactEmail ? eq(s.recipientEmail, q.email.toLowerCase()) : ilike(s.recipientEmail, likeText(q.email)));
  if (q.from) parts.push(gte(s.createdAt, new Date(`${q.from}T00:00:00Z`)));
  if (q.to) parts.push(lt(s.createdAt, new Date(Date.parse(`${q.to}T00:00:00Z`) + DAY)));
  return and(...parts);
}

/** A group's rows folded into one request; the status is its email's when one went out. */
export interface GroupRow {
  id: string;
  created_at: Date | string;
  /** created_at as the database writes it (microseconds kept), for the export's keyset */
  cursor_at: string;
  source: 'lookup' | 'request';
  serials: { serial: string; status: SearchStatus; reportId: string | null }[] | string;
  recipient_email: string | null;
  language: 'en' | 'zh';
  terms_version: number | null;
  status: SearchStatus;
  attempts: number;
  last_error: string | null;
  sent_at: Date | string | null;
  client_ip: string | null;
  user_agent: string | null;
}

/** The aggregate of the given groups (a subquery yielding group_id and created_at), newest first. */
function aggregate(groups: SQL, desc: boolean): SQL {
  return sql`
    select r.group_id as id, min(r.created_at) as created_at, min(r.created_at)::text as cursor_at, min(r.source) as source,
      json_agg(json_build_object('serial', r.serial, 'status', r.status, 'reportId', r.report_id) order by r.serial) as serials,
      max(r.recipient_email) as recipient_email, min(r.language) as language, max(r.terms_version) as terms_version,
      case when bool_or(r.status = 'queued') then 'queued' when bool_or(r.status = 'failed') then 'failed'
           when bool_or(r.status = 'sent') then 'sent' when bool_or(r.status = 'held') then 'held' else 'not-found' end as status,
      coalesce(max(r.attempts), 0)::int as attempts, max(r.last_error) as last_error, max(r.sent_at) as sent_at,
      max(r.client_ip) as client_ip, max(r.user_agent) as user_agent
    from ${s} r join (${groups}) g on g.group_id = r.group_id
    group by r.group_id
    order by min(r.created_at) ${desc ? sql`desc` : sql`asc`}, r.group_id`;
}

function groupsOf(where: SQL | undefined, desc: boolean, limit: number, offset: number, after?: { at: string; id: string }): SQL {
  const dir = desc ? sql`desc` : sql`asc`;
  const cursor = after
    ? desc
      ? sql`(${s.createdAt} < ${after.at}::timestamptz or (${s.createdAt} = ${after.at}::timestamptz and ${s.groupId} > ${after.id}::uuid))`
      : sql`(${s.createdAt} > ${after.at}::timestamptz or (${s.createdAt} = ${after.at}::timestamptz and ${s.groupId} > ${after.id}::uuid))`
    : undefined;
  const cond = and(where, cursor);
  return sql`select distinct on (${s.createdAt}, ${s.groupId}) ${s.groupId} as group_id, ${s.createdAt} as created_at
    from ${s} ${cond ? sql`where ${cond}` : sql``}
    order by ${s.createdAt} ${dir}, ${s.groupId} limit ${limit} offset ${offset}`;
}

export async function listGroups(
  db: Executor,
  q: SearchListQuery,
  exactEmail: boolean,
): Promise<{ rows: GroupRow[]; total: number; totalEstimated?: boolean }> {
  const { limit, offset } = pageWindow(q);
  const where = whereOf(q, exactEmail);
  const desc = q.order !== 'asc';
  if (offset > MAX_OFFSET) return { rows: [], ...(await countGroups(db, q, where)) };
  // A substring filter: the planner's estimate first, which decides whether its groups are counted at all.
  const planned = !countedByDay(q) && bySubstring(q, exactEmail) ? await estimateGroups(db, where, 0) : undefined;
  const estimateOnly = planned !== undefined && planned > ESTIMATE_ONLY_ABOVE;
  if (!countedByDay(q) && !estimateOnly && offset + limit <= TOTAL_COUNT_LIMIT + 1) {
    return pageAndCountInOneWalk(db, where, desc, limit, offset, planned);
  }
  const [page, count] = await Promise.all([
    db.execute(aggregate(groupsOf(where, desc, limit, offset), desc)),
    countGroups(db, q, where, planned),
  ]);
  return { rows: rowsOf<GroupRow>(page), ...count };
}

/**
 * A substring filter the planner expects to match more groups than the limit is not counted: its total is
 * the estimate, labelled so, as it would have been once the count passed the limit. Counting up to the
 * limit walks the newest requests until 10,001 groups match, and a substring has no index in created-at
 * order (its trigram index is not ordered): part of an address read 54,000 rows for it, and one just above
 * the limit (an address ending in 4, 10 %) most of the table (docs/decisions/0030-lists-at-a-year.md). The
 * estimate comes from the column's histogram (33,445 rows planned for 33,300 in the bench). Statuses and
 * dates are counted as before: their indexes are in created-at order, so the walk is short, and an estimate
 * past the limit for a set below it (sent in a month: 10,206 planned, 8,750 true) would lose an exact count.
 */
const ESTIMATE_ONLY_ABOVE = TOTAL_COUNT_LIMIT;

/** A serial or (admins) address substring: the filters read through a trigram index. */
const bySubstring = (q: Filter, exactEmail: boolean) => Boolean(q.q || q.serial || (q.email && !exactEmail));

/** No filter, or dates only: the kept requests per day count them. */
const countedByDay = (q: Filter) => !q.q && !q.serial && !q.status && !q.email;

/**
 * A filter that must be counted, with a page among its first TOTAL_COUNT_LIMIT + 1 groups: the groups are
 * walked once in the page's order up to that cap, and both the count and the page come from that walk
 * (a text filter reads its trigram index once, not once for the page and again for the count).
 */
async function pageAndCountInOneWalk(
  db: Executor,
  where: SQL | undefined,
  desc: boolean,
  limit: number,
  offset: number,
  planned: number | undefined,
): Promise<{ rows: GroupRow[]; total: number; totalEstimated?: boolean }> {
  const walked = rowsOf<{ n: number; ids: string[] | string | null }>(
    await db.execute(sql`with capped as materialized (${groupsOf(where, desc, TOTAL_COUNT_LIMIT + 1, 0)})
      select (select count(*)::int from capped) as n,
             (select array_agg(group_id) from (select group_id from capped order by created_at ${desc ? sql`desc` : sql`asc`}, group_id
               limit ${limit} offset ${offset}) page) as ids`),
  )[0];
  const n = Number(walked?.n ?? 0);
  const ids = parseUuidArray(walked?.ids ?? null);
  const rows = ids.length
    ? rowsOf<GroupRow>(
        await db.execute(
          aggregate(
            sql`select unnest(${sql`array[${sql.join(
              ids.map((id) => sql`${id}::uuid`),
              sql`, `,
            )}]`}) as group_id`,
            desc,
          ),
        ),
      )
    : [];
  if (n <= TOTAL_COUNT_LIMIT) return { rows, total: n };
  return { rows, total: planned === undefined ? await estimateGroups(db, where, n) : Math.max(planned, n), totalEstimated: true };
}

/** A uuid[] as the driver gives it: an array (node-postgres) or its text form `{a,b}` (PGlite). */
function parseUuidArray(v: string[] | string | null): string[] {
  if (v === null) return [];
  if (Array.isArray(v)) return v;
  return v
    .replace(/^\{|\}$/g, '')
    .split(',')
    .filter(Boolean);
}

/**
 * How many requests match, without counting every row of 150,000 (docs/decisions/0025-kept-quality-outcomes.md):
 * no filter or only dates: the kept requests per UTC day (search_request_counts, migration 0009), exact; any
 * other filter: its groups counted in created-at order up to TOTAL_COUNT_LIMIT, and beyond that the planner's
 * estimate of its groups (totalEstimated); a substring filter's estimate alone (`planned`, read by listGroups)
 * when it is above ESTIMATE_ONLY_ABOVE.
 */
async function countGroups(
  db: Executor,
  q: Filter,
  where: SQL | undefined,
  planned?: number,
): Promise<{ total: number; totalEstimated?: boolean }> {
  if (countedByDay(q)) {
    const days = and(q.from ? sql`day >= ${q.from}::date` : undefined, q.to ? sql`day <= ${q.to}::date` : undefined);
    const result = await db.execute(
      sql`select coalesce(sum(requests), 0)::int as n from search_request_counts ${days ? sql`where ${days}` : sql``}`,
    );
    return { total: Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0) };
  }
  if (planned !== undefined && planned > ESTIMATE_ONLY_ABOVE) return { total: planned, totalEstimated: true };
  const capped = await db.execute(sql`select count(*)::int as n from (
      select distinct on (${s.createdAt}, ${s.groupId}) ${s.groupId} from ${s} ${where ? sql`where ${where}` : sql``}
       order by ${s.createdAt} desc, ${s.groupId} limit ${TOTAL_COUNT_LIMIT + 1}) capped`);
  const n = Number(rowsOf<{ n: number }>(capped)[0]?.n ?? 0);
  if (n <= TOTAL_COUNT_LIMIT) return { total: n };
  return { total: planned === undefined ? await estimateGroups(db, where, n) : Math.max(planned, n), totalEstimated: true };
}

/** The planner's estimate of the groups a filter matches, at least the `counted` already walked. */
async function estimateGroups(db: Executor, where: SQL | undefined, counted: number): Promise<number> {
  const plan = rowsOf<Record<string, unknown>>(
    await db.execute(sql`explain (format json) select ${s.groupId} from ${s} ${where ? sql`where ${where}` : sql``} group by ${s.groupId}`),
  );
  const raw = plan[0]?.['QUERY PLAN'];
  const doc = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan?: { 'Plan Rows'?: number } }[];
  return Math.max(Math.round(Number(doc[0]?.Plan?.['Plan Rows'] ?? 0)), counted);
}

/** The filtered list in pages for the CSV export, walked by keyset (created_at, group id). */
export async function* groupPages(db: Executor, q: SearchListQuery, exactEmail: boolean, size = 1000): AsyncGenerator<GroupRow[]> {
  const where = whereOf(q, exactEmail);
  const desc = q.order !== 'asc';
  let after: { at: string; id: string } | undefined;
  for (;;) {
    const rows = rowsOf<GroupRow>(await db.execute(aggregate(groupsOf(where, desc, size, 0, after), desc)));
    if (rows.length > 0) yield rows;
    if (rows.length < size) return;
    const last = rows[rows.length - 1]!;
    after = { at: last.cursor_at, id: last.id };
  }
}

export async function oneGroup(db: Executor, groupId: string): Promise<GroupRow | null> {
  const rows = rowsOf<GroupRow>(await db.execute(aggregate(sql`select ${groupId}::uuid as group_id`, true)));
  return rows[0] ?? null;
}
