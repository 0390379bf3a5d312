/**
 * SQL of the dashboard. Each figure is one small statement over a kept count or an index (0009): none
 * counts the big tables per view.
 */
import { sql } from 'drizzle-orm';
import type { ORDER_DOCUMENT_TYPES } from '../../../shared/contract/orders';
import type { SearchStatus } from '../../../shared/contract/searches';
import { rowsOf, type Executor } from '../../db/client';

type OrderType = (typeof ORDER_DOCUMENT_TYPES)[number];

const num = (v: unknown): number => Number(v ?? 0);

/** Requests in all, and per UTC day from `from` on (the appended rows of 0009, summed). */
export async function requestCounts(
  db: Executor,
  from: string,
): Promise<{ total: number; days: { day: string; requests: number; notFound: number }[] }> {
  const result = await db.execute(sql`
    SELECT NULL AS day, sum(requests) AS requests, sum(not_found) AS not_found FROM search_request_counts
    UNION ALL
    SELECT to_char(day, 'YYYY-MM-DD'), sum(requests), sum(not_found) FROM search_request_counts WHERE day >= ${from}::date GROUP BY day`);
  const rows = rowsOf<{ day: string | null; requests: unknown; not_found: unknown }>(result);
  const total = num(rows.find((r) => r.day === null)?.requests);
  const days = rows.filter((r) => r.day !== null).map((r) => ({ day: r.day!, requests: num(r.requests), notFound: num(r.not_found) }));
  return { total, days };
}

/** Folds the appended request counts into one row per day (run by the background work). */
export async function compactRequestCounts(db: Executor): Promise<void> {
  await db.execute(sql`SELECT compact_search_request_counts()`);
}

/** Products, ranges and units: the counts kept on each product row. */
export async function catalogueCounts(db: Executor): Promise<{ products: number; ranges: number; units: number }> {
  const result = await db.execute(
    sql`SELECT count(*) AS products, coalesce(sum(range_count), 0) AS ranges, coalesce(sum(unit_count), 0) AS units FROM products`,
  );
  const [r] = rowsOf<{ products: unknown; ranges: unknown; units: unknown }>(result);
  return { products: num(r?.products), ranges: num(r?.ranges), units: num(r?.units) };
}

export interface RecentRow {
  id: string;
  created_at: Date | string;
  email: string | null;
  status: SearchStatus;
  serials: unknown;
}

/** The newest report requests (walked on search_requests_report_created_idx), one row per request. */
export async function recentRequests(db: Executor, limit: number): Promise<RecentRow[]> {
  const result = await db.execute(sql`
    WITH g AS (
      SELECT DISTINCT ON (created_at, group_id) group_id, created_at FROM search_requests
       WHERE source = 'request' ORDER BY created_at DESC, group_id LIMIT ${limit}
    )
    SELECT r.group_id::text AS id, min(r.created_at) AS created_at, max(r.recipient_email) AS email, count(*) AS serials,
      CASE WHEN bool_or(r.status = 'queued') THEN 'queued' WHEN bool_or(r.status = 'failed') THEN 'failed'
           WHEN bool_or(r.status = 'sent') THEN 'sent' WHEN bool_or(r.status = 'held') THEN 'held' ELSE 'not-found' END AS status
      FROM search_requests r JOIN g ON g.group_id = r.group_id
     GROUP BY r.group_id
     ORDER BY min(r.created_at) DESC, r.group_id`);
  return rowsOf<RecentRow>(result);
}

/** Mail waiting now (queued or being sent) and mail that failed for good, each counted on a partial index. */
export async function mailCounts(db: Executor): Promise<{ queued: number; failed: number }> {
  const result = await db.execute(sql`
    SELECT (SELECT count(*) FROM mail_outbox WHERE status IN ('queued', 'sending')) AS queued,
           (SELECT count(*) FROM mail_outbox WHERE status = 'failed') AS failed`);
  const [r] = rowsOf<{ queued: unknown; failed: unknown }>(result);
  return { queued: num(r?.queued), failed: num(r?.failed) };
}

/** Units first tested in [from, to) and those whose first attempts all passed (test_units of 0009). */
export async function firstPass(db: Executor, from: Date, to: Date): Promise<{ units: number; firstPass: number }> {
  const result = await db.execute(sql`
    SELECT count(*) AS units, count(*) FILTER (WHERE failed_types = 0) AS first_pass
      FROM test_units WHERE first_at >= ${from} AND first_at < ${to}`);
  const [r] = rowsOf<{ units: unknown; first_pass: unknown }>(result);
  return { units: num(r?.units), firstPass: num(r?.first_pass) };
}

/**
 * Units waiting on a disagreement: the latest test of some type is a bench pass the product's standard
 * rejects. Counted over the rows migration 0050 keeps (one per open disagreement; the few a race of two
 * writers may leave closed are pruned below within minutes).
 */
export async function disagreements(db: Executor): Promise<number> {
  const result = await db.execute(sql`SELECT count(*) AS n FROM (SELECT DISTINCT prefix, width, serial_no FROM open_disagreements) u`);
  return num(rowsOf<{ n: unknown }>(result)[0]?.n);
}

/**
 * The advisory lock that the writers which can re-open a kept disagreement (a delete, a re-judgement) share
 * and the pruning takes alone: migration 0050's trigger names the same number, and the two must agree.
 */
export const OPEN_DISAGREEMENTS_LOCK = 7347050;

/**
 * Drops the kept disagreements that a later test of their unit and type closed unseen (stored beside them by
 * another writer at the same moment); run by the background work. Returns how many went. The lock waits for
 * the writers that may re-open a kept row (a delete, a re-judgement) and keeps them out until the rows are gone.
 */
export async function pruneOpenDisagreements(db: Executor): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${sql.raw(String(OPEN_DISAGREEMENTS_LOCK))})`);
    const result = await tx.execute(sql`
      WITH gone AS (
        DELETE FROM open_disagreements o
         WHERE EXISTS (SELECT 1 FROM test_records l
                        WHERE l.prefix = o.prefix AND l.width = o.width AND l.serial_no = o.serial_no
                          AND l.test_type = o.test_type AND (l.tested_at, l.id) > (o.tested_at, o.record_id))
        RETURNING 1)
      SELECT count(*) AS n FROM gone`);
    return num(rowsOf<{ n: unknown }>(result)[0]?.n);
  });
}

/** Open deliveries with at least one unit: those a release could start on (unit_count is kept, 0020). */
export async function deliveriesAwaitingRelease(db: Executor): Promise<number> {
  const result = await db.execute(sql`SELECT count(*) AS n FROM deliveries WHERE status = 'open' AND unit_count > 0`);
  return num(rowsOf<{ n: unknown }>(result)[0]?.n);
}

/** The units of open deliveries of orders of an EN 10204 type, as gatesOf (reports/gate-batch.ts) reads them. */
export function openDeliveryUnits(type: OrderType) {
  return sql`SELECT u.id::text AS key, u.prefix, u.width, u.serial_no
  FROM delivery_units u JOIN deliveries d ON d.id = u.delivery_id JOIN purchase_orders p ON p.id = d.purchase_order_id
 WHERE d.status = 'open' AND u.active AND p.document_type = ${type}`;
}
