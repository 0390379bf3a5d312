/**
 * Whether a record's instrument was in calibration on its test day: the rule behind the reasons
 * `instrument-not-calibrated` and `instrument-unknown` (reasons.ts). A calibration covers the days from the
 * day it was calibrated to its due date, both included; the test day is the UTC date of the test time. A
 * later recalibration adds a calibration and never covers an earlier day, so it does not clear an old record
 * (docs/decisions/0050-instruments-and-calibration.md).
 */
import { REASONS } from './reasons';

const bit = (code: string) => REASONS.find((r) => r.code === code)!.bit;
export const INSTRUMENT_NOT_CALIBRATED = bit('instrument-not-calibrated');
export const INSTRUMENT_UNKNOWN = bit('instrument-unknown');
/** Both instrument reasons: what test_records.instrument_reasons may hold. */
export const INSTRUMENT_REASONS = INSTRUMENT_NOT_CALIBRATED | INSTRUMENT_UNKNOWN;

/** YYYY-MM-DD days, both ends included. */
export interface CalibrationDays {
  calibratedOn: string;
  dueOn: string;
}

/** A bench's instruments by their id, each with its calibrations. */
export type InstrumentCalibrations = ReadonlyMap<string, readonly CalibrationDays[]>;

const UTC_TIME = /^\d{4}-\d{2}-\d{2}T[^+-]*Z$/;

/** The UTC day of a test time: the day a calibration must cover. A UTC ISO time is cut, not parsed (bench batches). */
export const testDay = (testedAt: string | Date) =>
  typeof testedAt === 'string' && UTC_TIME.test(testedAt) ? testedAt.slice(0, 10) : new Date(testedAt).toISOString().slice(0, 10);

/** The calibration of `calibrations` that covers the test day (the newest such), or undefined. */
export function calibrationOn<C extends CalibrationDays>(calibrations: readonly C[], testedAt: string | Date): C | undefined {
  const day = testDay(testedAt);
  return calibrations
    .filter((c) => c.calibratedOn <= day && day <= c.dueOn)
    .sort((a, b) => b.calibratedOn.localeCompare(a.calibratedOn))[0];
}

/**
 * The instrument reasons of one record: 0 when calibrated instruments are not required, or when the record's
 * instrument is on its bench and a calibration of it covers the test day.
 */
export function instrumentReasons(
  required: boolean,
  instruments: InstrumentCalibrations | undefined,
  instrumentId: string | null,
  testedAt: string,
): number {
  if (!required) return 0;
  const calibrations = instrumentId === null ? undefined : instruments?.get(instrumentId);
  if (!calibrations) return INSTRUMENT_UNKNOWN;
  const day = testDay(testedAt);
  for (const c of calibrations) if (c.calibratedOn <= day && day <= c.dueOn) return 0;
  return INSTRUMENT_NOT_CALIBRATED;
}
