/**
 * The alerts new test records raise: a disagreement at once (naming the unit), a run rule broken by a
 * chart's newest point, and first-pass yield of a product's or a bench's last N units below its threshold.
 * Each reads only the groups the new records touched.
 */
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client';
import type { AlertThresholdRow } from '../../db/schema/index';
import { reasonsOf } from '../../../shared/standards/reasons';
import type { TestType } from '../../../shared/contract/machine-data';
import type { ControlMeasure } from '../../../shared/contract/quality';
import { controlChart } from '../quality/quality.service';
import { raiseAlert, raiseOnCondition, type AlertSinks } from './raise';

/** The charts the rules read: the newest 30 days, against the 90 days before them as the baseline. */
export const RULE_WINDOW_DAYS = 30;
export const RULE_BASELINE_DAYS = 90;
/** A baseline with fewer values says too little about the process to judge the new points against. */
export const RULE_MIN_BASELINE = 20;
export const RULE_MEASURES: readonly Exclude<ControlMeasure, 'pressureDrop'>[] = ['testPressure', 'holdingSeconds', 'leakage'];

export interface TouchedGroup {
  /** absent: the bench's tests of every product, read as the pressure ratio */
  productId?: string;
  machineId: string;
  testType: TestType;
}

/** A disagreement's record, as the alerts read it. */
export interface DisagreementRow {
  id: string;
  serial: string;
  product_id: string | null;
  machine_id: string | null;
  test_type: TestType;
  reasons: number;
  tested_at: Date;
}

export const DISAGREEMENT_COLUMNS = sql`id::text AS id, serial, product_id, machine_id, test_type, reasons, tested_at`;

/** Raises each record's disagreement alert once (its key is the record); `raisedAt` by default now. */
export async function raiseDisagreements(
  db: Db,
  rows: readonly DisagreementRow[],
  sinks: AlertSinks,
  raisedAt?: (r: DisagreementRow) => Date,
): Promise<number> {
  let raised = 0;
  for (const r of rows) {
    const alert = await db.transaction((tx) =>
      raiseAlert(
        tx,
        {
          kind: 'disagreement',
          dedupeKey: `disagreement:${r.id}`,
          productId: r.product_id,
          machineId: r.machine_id,
          serial: r.serial,
          recordId: Number(r.id),
          detail: { testType: r.test_type, reasons: reasonsOf(r.reasons), at: new Date(r.tested_at).toISOString() },
          ...(raisedAt ? { raisedAt: raisedAt(r) } : {}),
        },
        sinks,
      ),
    );
    if (alert) raised++;
  }
  return raised;
}

/** Disagreements among the records received since `since`: one alert each, raised once. */
export async function disagreementAlerts(db: Db, since: Date, sinks: AlertSinks): Promise<number> {
  const rows = rowsOf<DisagreementRow>(
    await db.execute(sql`
      SELECT ${DISAGREEMENT_COLUMNS} FROM test_records
       WHERE received_at > ${since} AND result = 'pass' AND verdict = 'nonconforming'
       ORDER BY received_at, id LIMIT 1000`),
  );
  return raiseDisagreements(db, rows, sinks);
}

/** The product × bench × test type groups of the records received since `since`. */
export async function touchedGroups(db: Db, since: Date): Promise<TouchedGroup[]> {
  return rowsOf<{ product_id: string; machine_id: string; test_type: TestType }>(
    await db.execute(sql`
      SELECT DISTINCT product_id, machine_id, test_type FROM test_records
       WHERE received_at > ${since} AND product_id IS NOT NULL AND machine_id IS NOT NULL
       LIMIT 500`),
  ).map((r) => ({ productId: r.product_id, machineId: r.machine_id, testType: r.test_type }));
}

const day = (d: Date) => d.toISOString().slice(0, 10);
const daysBefore = (d: Date, n: number) => new Date(d.getTime() - n * 86_400_000);

/** The benches × test types of the groups: each bench's pressure ratio across the products it tests. */
export function benchGroups(groups: readonly TouchedGroup[]): TouchedGroup[] {
  const seen = new Map<string, TouchedGroup>();
  for (const g of groups) seen.set(`${g.machineId}:${g.testType}`, { machineId: g.machineId, testType: g.testType });
  return [...seen.values()];
}

/**
 * The run rules (Western Electric 1–4) on each measure's chart of the group, as of `asOf`: a condition
 * that begins when a new point breaks a rule and ends when new points break none. A product's
 * group reads its measures; a bench's (no product), the pressure ratio, where a bench's drift shows.
 */
export async function ruleAlerts(
  db: Db,
  g: TouchedGroup,
  asOf: Date,
  sinks: AlertSinks,
  baseline?: { from: string; to: string } | null,
  /** the points drawn after this instant are judged (the records since the last round); none: the newest */
  newSince?: Date,
): Promise<number> {
  let raised = 0;
  const measures: readonly Exclude<ControlMeasure, 'pressureDrop'>[] = g.productId ? RULE_MEASURES : ['pressureRatio'];
  for (const measure of measures) {
    const chart = await controlChart(db, {
      productId: g.productId,
      machineId: g.machineId,
      testType: g.testType,
      measure,
      rules: 'western-electric',
      from: day(daysBefore(asOf, RULE_WINDOW_DAYS - 1)),
      to: day(asOf),
      // The engineer's baseline (the thresholds' period known in control), else the 90 days before the window.
      baselineFrom: baseline?.from ?? day(daysBefore(asOf, RULE_WINDOW_DAYS + RULE_BASELINE_DAYS - 1)),
      baselineTo: baseline?.to ?? day(daysBefore(asOf, RULE_WINDOW_DAYS)),
    }).catch(() => null);
    if (!chart || !chart.baseline || chart.baseline.n < RULE_MIN_BASELINE || chart.points.length === 0) continue;
    // The points new since the last look (by default the newest alone): no new point leaves the condition as
    // it is; a new one that breaks a rule begins it (the newest such is named); new ones that break none end it.
    const fresh = chart.points
      .map((p, i) => ({ p, i }))
      .filter(({ p, i }) => (newSince ? Date.parse(p.at) > newSince.getTime() : i === chart.points.length - 1));
    if (fresh.length === 0) continue;
    const broken = [...chart.breaks].reverse().find((b) => fresh.some((f) => f.i === b.index));
    const point = chart.points[broken?.index ?? fresh.at(-1)!.i]!;
    const key = `rule:${g.productId ?? 'bench'}:${g.machineId}:${g.testType}:${measure}`;
    const alert = await db.transaction((tx) =>
      raiseOnCondition(
        tx,
        key,
        broken !== undefined,
        {
          kind: 'rule',
          productId: g.productId ?? null,
          machineId: g.machineId,
          detail: {
            testType: g.testType,
            measure,
            rules: broken?.rules ?? [],
            at: point.at,
            value: point.mean,
            ...(chart.centre !== null ? { centre: chart.centre } : {}),
            ...(baseline ? { baselineFrom: baseline.from, baselineTo: baseline.to } : {}),
          },
          raisedAt: asOf,
        },
        sinks,
      ),
    );
    if (alert) raised++;
  }
  return raised;
}

/**
 * First-pass yield of the last N units of a product or a bench: a unit passes first time when the first
 * attempt of each of its test types (among the newest records read) passed. The newest N × 8 records are
 * read, enough for units of up to eight tests each, so the check costs the same at any table size.
 */
export async function firstPassOfLast(db: Db, on: { productId: string } | { machineId: string }, units: number) {
  const where = 'productId' in on ? sql`product_id = ${on.productId}` : sql`machine_id = ${on.machineId}`;
  const [row] = rowsOf<{ units: number; first_pass: number }>(
    await db.execute(sql`
      WITH recent AS (
        SELECT serial, test_type, outcome, tested_at, id FROM test_records
         WHERE ${where} ORDER BY tested_at DESC, id DESC LIMIT ${units * 8}
      ), firsts AS (
        SELECT DISTINCT ON (serial, test_type) serial, test_type, outcome FROM recent ORDER BY serial, test_type, tested_at, id
      ), unit_results AS (
        SELECT serial, bool_and(outcome = 'pass') AS first_pass FROM firsts GROUP BY serial
      ), unit_last AS (
        SELECT serial, max(tested_at) AS last_at FROM recent GROUP BY serial
      ), newest AS (
        SELECT u.first_pass FROM unit_results u JOIN unit_last l USING (serial) ORDER BY l.last_at DESC LIMIT ${units}
      )
      SELECT count(*)::int AS units, (count(*) FILTER (WHERE first_pass))::int AS first_pass FROM newest`),
  );
  return { units: row?.units ?? 0, firstPass: row?.first_pass ?? 0 };
}

/** The yield alert of one product's or bench's thresholds (a condition: raised when the yield falls below). */
export async function yieldAlert(db: Db, t: AlertThresholdRow, asOf: Date, sinks: AlertSinks) {
  if (t.yieldUnits === null || t.yieldMin === null) return null;
  const on = t.productId ? { productId: t.productId } : { machineId: t.machineId! };
  const { units, firstPass } = await firstPassOfLast(db, on, t.yieldUnits);
  const below = units >= t.yieldUnits && firstPass / units < Number(t.yieldMin);
  const key = t.productId ? `yield:product:${t.productId}` : `yield:machine:${t.machineId}`;
  return db.transaction((tx) =>
    raiseOnCondition(
      tx,
      key,
      below,
      {
        kind: 'yield',
        productId: t.productId,
        machineId: t.machineId,
        detail: { units, firstPass, threshold: Number(t.yieldMin) },
        raisedAt: asOf,
      },
      sinks,
    ),
  );
}
