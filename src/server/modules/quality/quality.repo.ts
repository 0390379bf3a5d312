/**
 * SQL of the quality analysis (the definitions are in src/shared/contract/quality.ts). The summary and the
 * never-retested list read what migration 0012 keeps as records change; the control charts read the records.
 */
import { eq, sql, type SQL } from 'drizzle-orm';
import type { JudgedProduct } from '../../../shared/standards/requirement';
import type { ControlMeasure, QualityInterval } from '../../../shared/contract/quality';
import type { TestType } from '../../../shared/contract/machine-data';
import { rowsOf, type Executor } from '../../db/client';
import { products } from '../../db/schema/index';
import { judgedProduct } from '../standards/standards.service';

export interface Range {
  from: Date;
  /** exclusive */
  to: Date;
}

export interface SummaryRow {
  dim: 'total' | 'product' | 'machine' | 'testType' | 'period';
  key: string | null;
  units: number;
  first_pass: number;
  final_pass: number;
  retested: number;
  tests: number;
  failures: number;
}

const counts = (fp: string, fin: string, re: string) =>
  sql.raw(`count(*)::int AS units, (count(*) FILTER (WHERE ${fp}))::int AS first_pass,
    (count(*) FILTER (WHERE ${fin}))::int AS final_pass, (count(*) FILTER (WHERE ${re}))::int AS retested,
    sum(n)::int AS tests, sum(nfail)::int AS failures`);

/**
 * The summary's figures, read from what migration 0012 keeps (docs/decisions/0025-kept-quality-outcomes.md):
 * the kept sums of the units whose tests all lie inside the range, plus the units that straddle one of its
 * edges, grouped from their records inside the range as below.
 *
 * b: the records per unit × product × bench × test type, with the first and last attempt's time and the
 * first and last failure's time: "the first attempt failed" is min(fail) = min(all). Ties at the same
 * instant count as a failure first (a bench cannot run two tests of one unit at once).
 */
export async function summary(db: Executor, range: Range, interval: QualityInterval): Promise<SummaryRow[]> {
  const unitPass = counts('fp', 'fin', 're');
  const fromDay = range.from.toISOString().slice(0, 10);
  const toDay = range.to.toISOString().slice(0, 10);
  const result = await db.execute(sql`
    WITH kept AS (
      SELECT dim, key, sum(units) AS units, sum(first_pass) AS first_pass, sum(final_pass) AS final_pass,
             sum(retested) AS retested, sum(tests) AS tests, sum(failures) AS failures
        FROM quality_day_counts
       WHERE first_day >= ${fromDay}::date AND last_day < ${toDay}::date
       GROUP BY dim, key
    ),
    edge AS (
      SELECT prefix, width, serial_no FROM quality_units
       WHERE first_day < last_day
         AND ((daterange(first_day, last_day, '[]') @> ${fromDay}::date AND first_day < ${fromDay}::date)
           OR (daterange(first_day, last_day, '[]') @> ${toDay}::date AND first_day < ${toDay}::date))
    ),
    b AS MATERIALIZED (
      SELECT r.serial, r.product_id, r.machine_id, r.test_type, count(*) AS n, count(*) FILTER (WHERE r.outcome = 'fail') AS nfail,
             min(r.tested_at) AS min_at, max(r.tested_at) AS max_at,
             min(r.tested_at) FILTER (WHERE r.outcome = 'fail') AS min_fail, max(r.tested_at) FILTER (WHERE r.outcome = 'fail') AS max_fail
        FROM edge e
        JOIN test_records r ON r.prefix = e.prefix AND r.width = e.width AND r.serial_no = e.serial_no
       WHERE r.tested_at >= ${range.from} AND r.tested_at < ${range.to}
       GROUP BY r.serial, r.product_id, r.machine_id, r.test_type
    ),
    ut AS MATERIALIZED (
      SELECT serial, product_id, test_type, sum(n) AS n, sum(nfail) AS nfail, min(min_at) AS first_at,
             coalesce(min(min_fail) = min(min_at), false) AS first_failed, coalesce(max(max_fail) = max(max_at), false) AS last_failed
        FROM b GROUP BY serial, product_id, test_type
    ),
    u AS MATERIALIZED (
      SELECT serial, product_id, min(first_at) AS first_at, bool_and(NOT first_failed) AS fp, bool_and(NOT last_failed) AS fin,
             bool_or(n > 1) AS re, sum(n) AS n, sum(nfail) AS nfail
        FROM ut GROUP BY serial, product_id
    ),
    um AS (
      SELECT machine_id, bool_and(coalesce(min_fail <> min_at, true)) AS fp, bool_and(coalesce(max_fail <> max_at, true)) AS fin,
             bool_or(n > 1) AS re, sum(n) AS n, sum(nfail) AS nfail
        FROM b GROUP BY serial, machine_id
    ),
    edges AS (
      SELECT 'total' AS dim, NULL::text AS key, ${unitPass} FROM u HAVING count(*) > 0
      UNION ALL SELECT 'product', product_id::text, ${unitPass} FROM u GROUP BY product_id
      UNION ALL SELECT 'period', to_char(date_trunc(${interval}, first_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD'), ${unitPass} FROM u GROUP BY 2
      UNION ALL SELECT 'testType', test_type, ${counts('NOT first_failed', 'NOT last_failed', 'n > 1')} FROM ut GROUP BY test_type
      UNION ALL SELECT 'machine', machine_id::text, ${unitPass} FROM um GROUP BY machine_id
    ),
    inside AS (
      SELECT dim, CASE WHEN dim = 'period' THEN to_char(date_trunc(${interval}, key::timestamp), 'YYYY-MM-DD') ELSE nullif(key, '') END AS key,
             units, first_pass, final_pass, retested, tests, failures
        FROM kept
    )
    SELECT dim, key, sum(units)::int AS units, sum(first_pass)::int AS first_pass, sum(final_pass)::int AS final_pass,
           sum(retested)::int AS retested, sum(tests)::int AS tests, sum(failures)::int AS failures
      FROM (SELECT * FROM inside UNION ALL SELECT * FROM edges) x
     GROUP BY dim, key
    HAVING sum(units) <> 0`);
  return rowsOf<SummaryRow>(result);
}

/** Names of products and benches by id (the few a summary names; ids are uuids, so a comma joins them safely). */
export async function names(db: Executor, productIds: string[], machineIds: string[]): Promise<Map<string, string>> {
  const result = await db.execute(sql`
    SELECT id::text AS id, name::text AS name FROM products WHERE id::text = ANY(string_to_array(${productIds.join(',')}, ','))
    UNION ALL SELECT id::text, name::text FROM machines WHERE id::text = ANY(string_to_array(${machineIds.join(',')}, ','))`);
  return new Map(rowsOf<{ id: string; name: string }>(result).map((r) => [r.id, r.name]));
}

/**
 * The range's failed records (by outcome: the bench failed them or the product finds them nonconforming) with
 * no later test of the same unit and type (at any date): kept as they change (quality_open_failures,
 * migration 0012), so the page and the count are index ranges.
 */
export interface OpenFailureRow {
  id: string;
  record_id: string;
  serial: string;
  test_type: TestType;
  tested_at: Date | string;
  product_id: string | null;
  product_name: string | null;
  product_name_zh: string | null;
  machine_id: string | null;
  machine_name: string | null;
}

export async function openFailures(
  db: Executor,
  range: Range,
  limit: number,
  offset: number,
): Promise<{ rows: OpenFailureRow[]; total: number }> {
  const inRange = sql`o.tested_at >= ${range.from} AND o.tested_at < ${range.to}`;
  const [page, total] = await Promise.all([
    db.execute(sql`
      SELECT r.id::text AS id, r.record_id, r.serial, r.test_type, r.tested_at, r.product_id::text AS product_id,
             p.name::text AS product_name, p.name_zh AS product_name_zh, r.machine_id::text AS machine_id, m.name::text AS machine_name
        FROM (SELECT id, tested_at FROM quality_open_failures o WHERE ${inRange}
               ORDER BY o.tested_at DESC, o.id DESC LIMIT ${limit} OFFSET ${offset}) o
        JOIN test_records r ON r.id = o.id
        LEFT JOIN products p ON p.id = r.product_id
        LEFT JOIN machines m ON m.id = r.machine_id
       ORDER BY o.tested_at DESC, o.id DESC`),
    db.execute(sql`SELECT count(*)::int AS n FROM quality_open_failures o WHERE ${inRange}`),
  ]);
  return { rows: rowsOf<OpenFailureRow>(page), total: rowsOf<{ n: number }>(total)[0]?.n ?? 0 };
}

/** The product as the standards judge it (its standard, type, size, seat, leakage rate and ratings). */
export async function judgedProductOf(db: Executor, productId: string): Promise<JudgedProduct | undefined> {
  const [p] = await db.select().from(products).where(eq(products.id, productId)).limit(1);
  return p ? judgedProduct(p) : undefined;
}

export interface ChartFilter extends Range {
  /** absent: every product's tests (the pressure ratio only) */
  productId?: string;
  testType: TestType;
  /** one bench's tests only (the chart split by bench) */
  machineId?: string;
}

/** The records a chart reads: the product's tests of the type over the days, on the bench when one is named. */
const chartRecords = (f: ChartFilter) =>
  sql`${f.productId ? sql`product_id = ${f.productId} AND ` : sql``}test_type = ${f.testType} AND tested_at >= ${f.from} AND tested_at < ${f.to}${
    f.machineId ? sql` AND machine_id = ${f.machineId}` : sql``
  }`;

/**
 * The records with their test pressure over the required minimum: the requirement row of the product, the
 * range's body material and the test type in force on the test day, as the judgement joins it (migration
 * 0027). Records of products without a standard, or tests it has no pressure for, have no ratio.
 */
const RATIO_SOURCE = sql`(
  SELECT r.id, r.product_id, r.machine_id, r.test_type, r.tested_at, r.leakage_unit,
         r.test_pressure::float8 / q.pressure_min::float8 AS pressure_ratio
    FROM test_records r
    JOIN serial_ranges s ON s.id = r.range_id
    JOIN product_requirements q
      ON q.product_id = r.product_id AND q.body_material = coalesce(s.body_material, '') AND q.test_type = r.test_type
     AND (q.in_force_from IS NULL OR r.tested_at >= q.in_force_from) AND (q.in_force_to IS NULL OR r.tested_at < q.in_force_to)
   WHERE q.pressure_min > 0)`;

const VALUE: Record<Exclude<ControlMeasure, 'pressureDrop'>, SQL> = {
  testPressure: sql`test_pressure::float8`,
  pressureRatio: sql`pressure_ratio`,
  holdingSeconds: sql`holding_seconds::float8`,
  leakage: sql`leakage_value::float8`,
};

/** The leakage unit most records of the set use (leakage values are compared in one unit only). */
export async function leakageUnit(db: Executor, f: ChartFilter): Promise<string | null> {
  const result = await db.execute(sql`
    SELECT leakage_unit FROM test_records
     WHERE ${chartRecords(f)}
       AND leakage_unit IS NOT NULL
     GROUP BY leakage_unit ORDER BY count(*) DESC, leakage_unit LIMIT 1`);
  return rowsOf<{ leakage_unit: string }>(result)[0]?.leakage_unit ?? null;
}

export interface BucketRow {
  /** the row of the whole set (its n, mean, σ and mean moving range), first */
  total: boolean;
  n: number;
  mean: number;
  min: number;
  max: number;
  at: Date | string;
  sigma: number | null;
  mr: number | null;
}

/**
 * The measure's statistics (bucket NULL: n, mean, σ, mean moving range in tested-at order) and its points
 * (mean, min and max per time bucket) in one pass; the product index serves the product and range.
 */
export async function chartBuckets(
  db: Executor,
  f: ChartFilter,
  measure: Exclude<ControlMeasure, 'pressureDrop'>,
  unit: string | null,
  buckets: number,
): Promise<BucketRow[]> {
  const v = VALUE[measure];
  const result = await db.execute(sql`
    WITH x AS (
      SELECT tested_at, ${v} AS v, abs(${v} - lag(${v}) OVER (ORDER BY tested_at, id)) AS mr,
             width_bucket(extract(epoch FROM tested_at)::float8, ${f.from.getTime() / 1000}::float8, ${f.to.getTime() / 1000}::float8, ${buckets}::int) AS bucket
        FROM ${measure === 'pressureRatio' ? RATIO_SOURCE : sql`test_records`} AS test_records
       WHERE ${chartRecords(f)}
         AND ${v} IS NOT NULL ${unit !== null ? sql`AND leakage_unit = ${unit}` : sql``}
    )
    SELECT grouping(bucket) = 1 AS total, count(*)::int AS n, avg(v) AS mean, min(v) AS min, max(v) AS max, min(tested_at) AS at,
           stddev_samp(v) AS sigma, avg(mr) AS mr
      FROM x
     GROUP BY GROUPING SETS ((), (bucket))
     ORDER BY grouping(bucket) DESC, bucket`);
  return rowsOf<BucketRow>(result).map((r) => ({
    ...r,
    mean: Number(r.mean),
    min: Number(r.min),
    max: Number(r.max),
    sigma: r.sigma === null ? null : Number(r.sigma),
    mr: r.mr === null ? null : Number(r.mr),
  }));
}

/** The newest tests with samples in the range (for the pressure drop during the hold). */
export async function newestWithSamples(db: Executor, f: ChartFilter, limit: number) {
  const result = await db.execute(sql`
    SELECT tested_at, test_pressure::float8 AS test_pressure, holding_seconds, samples
      FROM test_records
     WHERE ${chartRecords(f)}
       AND sample_count > 0
     ORDER BY tested_at DESC, id DESC
     LIMIT ${limit}`);
  return rowsOf<{ tested_at: Date | string; test_pressure: number; holding_seconds: number; samples: Uint8Array }>(result);
}

/**
 * Report requests held in the range (search_requests_status_idx serves status + created_at), newest first.
 * No e-mail address: this list is about the units, and staff see addresses masked elsewhere.
 */
export async function heldRequests(db: Executor, range: Range, limit: number, offset: number) {
  const where = sql`status = 'held' AND created_at >= ${range.from} AND created_at < ${range.to}`;
  const [page, total] = await Promise.all([
    db.execute(sql`SELECT id::text AS id, serial, language, created_at FROM search_requests WHERE ${where}
                   ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`),
    db.execute(sql`SELECT count(*)::int AS n FROM search_requests WHERE ${where}`),
  ]);
  return {
    rows: rowsOf<{ id: string; serial: string; language: string; created_at: Date | string }>(page),
    total: rowsOf<{ n: number }>(total)[0]?.n ?? 0,
  };
}

/** A unit tested over a range: its serial (the gate's key), its series and its newest test in the range. */
export interface TestedUnit {
  key: string;
  prefix: string;
  width: number;
  serialNo: string;
  latest: Date;
}

/**
 * The units with a test over the range (on the tested-at index), newest test first; with a product or a
 * bench, those with a test of that product or on that bench in the range.
 */
export async function testedUnits(db: Executor, range: Range, by: { productId?: string; machineId?: string }): Promise<TestedUnit[]> {
  const rows = rowsOf<{ prefix: string; width: number; serial_no: string; latest: Date | string }>(
    await db.execute(sql`
      SELECT prefix, width, serial_no::text AS serial_no, max(tested_at) AS latest
        FROM test_records
       WHERE tested_at >= ${range.from.toISOString()} AND tested_at < ${range.to.toISOString()}
         ${by.productId ? sql`AND product_id = ${by.productId}` : sql``}
         ${by.machineId ? sql`AND machine_id = ${by.machineId}` : sql``}
       GROUP BY prefix, width, serial_no
       ORDER BY latest DESC, prefix, serial_no`),
  );
  return rows.map((r) => ({
    key: r.prefix + r.serial_no.padStart(Number(r.width), '0'),
    prefix: r.prefix,
    width: Number(r.width),
    serialNo: r.serial_no,
    latest: new Date(r.latest),
  }));
}

/** Products' names in both languages, by id. */
export async function productNames(db: Executor, ids: string[]): Promise<Map<string, { name: string; nameZh: string | null }>> {
  if (ids.length === 0) return new Map();
  const rows = rowsOf<{ id: string; name: string; name_zh: string | null }>(
    await db.execute(
      sql`SELECT id::text AS id, name::text AS name, name_zh::text AS name_zh FROM products WHERE id::text = ANY(${sql.param(ids)}::text[])`,
    ),
  );
  return new Map(rows.map((r) => [r.id, { name: r.name, nameZh: r.name_zh || null }]));
}
