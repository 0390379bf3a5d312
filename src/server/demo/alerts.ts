/**
 * The demo's alerts, as the evaluator would have raised them had it run through the demo's past: Hydro
 * Bench 2's pressure ratio read day by day through its drift (the first rule breaks come within its first
 * weeks), the last months' disagreements, thresholds on the benches, and the calibrations due now. The
 * older ones are acknowledged with a cause and an action, as a quality engineer would have; the newest stay
 * open. The evaluator's cursor starts at the demo's end, so its first round does not read the whole import.
 */
import { and, eq, lt, sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../db/client';
import { alerts, alertThresholds, machines } from '../db/schema/index';
import type { TestType } from '../../shared/contract/test-types';
import { evaluateAlerts, readRecordsFrom } from '../modules/alerts/evaluator';
import { silentSinks } from '../modules/alerts/raise';
import { DISAGREEMENT_COLUMNS, raiseDisagreements, ruleAlerts, yieldAlert, type DisagreementRow } from '../modules/alerts/record-checks';
import { BENCHES, DRIFT_DAYS, DRIFTING_BENCH } from './records';

const DAY = 86_400_000;
/** who acknowledged the demo's older alerts (the demo's staff account) */
const DEMO_QUALITY_ENGINEER = 'staff@demo.example.com';
/** How far back the drift is read: its half year and a little before. */
const REPLAY_DAYS = DRIFT_DAYS + 20;

const ACKNOWLEDGED = [
  {
    cause: 'Gauge PG-21 read high after the pump was serviced; the relief valve setting had been raised.',
    action: 'Relief valve reset to the procedure; PG-21 checked against the master gauge; the week’s units retested.',
  },
  {
    cause: '測試台 2 的調壓閥磨耗，壓力逐漸偏高。',
    action: '已更換調壓閥並重新校正壓力表，當週產品已重測。',
  },
  {
    cause: 'The bench program still held the previous product’s settings; the operator went by the bench’s pass.',
    action: 'Unit retested to its own requirement; the program is now chosen from the serial; operators briefed.',
  },
];

export interface DemoAlertsResult {
  raised: number;
  acknowledged: number;
}

export async function demoAlerts(db: Db, now = Date.now()): Promise<DemoAlertsResult> {
  const benches = await db.select({ id: machines.id, name: machines.name }).from(machines);
  const byName = new Map(benches.map((b) => [String(b.name), b.id]));
  const drifting = byName.get(BENCHES[DRIFTING_BENCH].name);
  let raised = 0;

  // The drifting bench, read each day as the evaluator reads it: the shell and seat tests' pressure ratio
  // against the half year before the drift, the baseline its quality engineer set as known in control.
  const today = Math.floor(now / DAY) * DAY;
  const day = (t: number) => new Date(t).toISOString().slice(0, 10);
  const baseline = { from: day(today - 2 * DRIFT_DAYS * DAY), to: day(today - (DRIFT_DAYS + 1) * DAY) };
  if (drifting) {
    for (let d = REPLAY_DAYS; d >= 1; d--) {
      const asOf = new Date(today - d * DAY + 16 * 3_600_000);
      for (const testType of ['shell', 'seat'] as TestType[])
        raised += await ruleAlerts(db, { machineId: drifting, testType }, asOf, silentSinks, baseline, new Date(asOf.getTime() - DAY));
    }
  }

  // The last three months' disagreements, raised when their record arrived.
  const since = new Date(now - 90 * DAY);
  // (Those of a gauge past its due day are Hydro Bench 3's calibration alert, not one each.)
  const disagreements = rowsOf<DisagreementRow>(
    await db.execute(sql`
      SELECT * FROM (
        SELECT DISTINCT ON (serial) ${DISAGREEMENT_COLUMNS} FROM test_records
         WHERE tested_at > ${since} AND result = 'pass' AND verdict = 'nonconforming' AND instrument_reasons = 0
         ORDER BY serial, tested_at
      ) d ORDER BY tested_at DESC LIMIT 12`),
  );
  raised += await raiseDisagreements(db, disagreements, silentSinks, (r) => new Date(new Date(r.tested_at).getTime() + 60_000));

  // Thresholds a quality engineer would set: each bench's first-pass yield over its last 200 units; the
  // drifting bench's baseline; and Hydro Bench 3, whose gauge fell due, silent after two working hours.
  for (const b of benches) {
    const [t] = await db
      .insert(alertThresholds)
      .values({
        machineId: b.id,
        yieldUnits: 200,
        yieldMin: 0.97,
        silenceMinutes: String(b.name) === BENCHES[2].name ? 120 : null,
        ...(b.id === drifting ? { baselineFrom: baseline.from, baselineTo: baseline.to } : {}),
      })
      .onConflictDoNothing()
      .returning();
    if (t && (await yieldAlert(db, t, new Date(now), silentSinks))) raised++;
  }

  // What is true now: calibrations due, benches silent. The cursor starts here.
  raised += (await evaluateAlerts(db, silentSinks, new Date(now), { records: false })).raised;
  // The server's first round reads what arrives after the demo, not the demo's own import again.
  await readRecordsFrom(db, new Date(now));

  // The older alerts acknowledged; those of the last two weeks left open.
  const older = await db
    .select({ id: alerts.id, kind: alerts.kind, raisedAt: alerts.raisedAt })
    .from(alerts)
    .where(and(eq(alerts.status, 'open'), lt(alerts.raisedAt, new Date(now - 14 * DAY))))
    .orderBy(alerts.raisedAt);
  let i = 0;
  for (const a of older) {
    const note = a.kind === 'disagreement' ? ACKNOWLEDGED[2]! : ACKNOWLEDGED[i++ % 2]!;
    await db
      .update(alerts)
      .set({
        status: 'acknowledged',
        acknowledgedAt: new Date(a.raisedAt.getTime() + 5 * 3_600_000),
        acknowledgedByLabel: DEMO_QUALITY_ENGINEER,
        cause: note.cause,
        action: note.action,
      })
      .where(eq(alerts.id, a.id));
  }
  return { raised, acknowledged: older.length };
}
