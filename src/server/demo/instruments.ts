/**
 * The demo benches' gauges: each calibrated every half year, without a gap, from before the first record to
 * its calibration in force (due `dueInDays` from today, records.ts benchesOf); and Settings requiring calibrated
 * instruments, so that the records Hydro Bench 3 measured after its gauge fell due are held.
 */
import { settingsUpdateInput } from '../../shared/contract/settings';
import type { Db } from '../db/client';
import type { AuditActor } from '../modules/audit/audit.writer';
import { addCalibration, createInstrument } from '../modules/machines/instruments.service';
import { getSettings, updateSettings } from '../modules/settings/settings.service';
import type { DemoBench } from './records';

const DAY = 86_400_000;
const HALF_YEAR_DAYS = 182;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Calibrates each bench's gauge back to `firstDay` (ms) and switches the requirement on. `lastTest` is each
 * bench's last test time (ms), by bench name: where a bench's gauge has no due day of its own, it fell due
 * three days before that.
 */
export async function demoInstruments(
  db: Db,
  actor: AuditActor,
  benches: { id: string; name: string }[],
  span: { firstDay: number; today: number; lastTest: ReadonlyMap<string, number> },
  demoBenches: readonly DemoBench[],
) {
  const { firstDay, today } = span;
  for (const b of demoBenches) {
    const machineId = benches.find((x) => x.name === b.name)!.id;
    const current = b.dueInDays === null ? (span.lastTest.get(b.name) ?? today) - 3 * DAY : today + b.dueInDays * DAY;
    // Newest first: the calibration in force, then one before it for every half year back to the first day.
    const periods: { calibratedOn: number; dueOn: number }[] = [];
    for (let due = current; due > firstDay; due -= HALF_YEAR_DAYS * DAY) {
      periods.push({ calibratedOn: due - HALF_YEAR_DAYS * DAY, dueOn: due });
    }
    const [oldest, ...later] = periods.reverse();
    const certificate = (p: { calibratedOn: number }) => `CAL-${b.code}-${day(p.calibratedOn).replace(/-/g, '')}`;
    const gauge = await createInstrument(db, actor, machineId, {
      instrumentId: b.gauge,
      kind: 'gauge',
      rangeMax: 25,
      accuracy: 0.5,
      calibrationCertificate: certificate(oldest!),
      calibratedOn: day(oldest!.calibratedOn),
      dueOn: day(oldest!.dueOn),
    });
    for (const p of later) {
      await addCalibration(db, actor, machineId, gauge.id, {
        calibrationCertificate: certificate(p),
        calibratedOn: day(p.calibratedOn),
        dueOn: day(p.dueOn),
      });
    }
  }
  const before = await getSettings(db);
  await updateSettings(db, actor, settingsUpdateInput.parse({ ...before, requireCalibratedInstruments: true }));
}
