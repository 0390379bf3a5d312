/**
 * The measuring instruments of a test bench (`/api/v1/machines/{id}/instruments`; admins keep them): pressure
 * gauges and transducers, each with its calibrations. A calibration is never rewritten: a recalibration adds
 * one, so a record keeps being judged by the calibration in force on its test day
 * (docs/decisions/0050-instruments-and-calibration.md).
 */
import { z } from 'zod';
import { envelope, requiredText } from './common';
import { decimalField, LINE_BREAK, noLineBreak, PRESSURE_MAX, printable } from './products';
import { isCalendarDate } from './serials';

export const INSTRUMENT_ID_MAX = 60;
export const CALIBRATION_CERTIFICATE_MAX = 120;
export const INSTRUMENT_KINDS = ['gauge', 'transducer'] as const;
export type InstrumentKind = (typeof INSTRUMENT_KINDS)[number];
/** Days before its due date from which a calibration is shown as due soon. */
export const CALIBRATION_DUE_SOON_DAYS = 30;

/** The bench's own name of the instrument, as its records carry it: printable, one line. */
export const instrumentIdField = () =>
  requiredText(INSTRUMENT_ID_MAX).refine(noLineBreak, LINE_BREAK).refine(printable, { error: 'validation.invalid' });

const calendarDate = () =>
  z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required', abort: true })
    .refine(isCalendarDate, { error: 'validation.date' });

const calibrationFields = {
  calibrationCertificate: requiredText(CALIBRATION_CERTIFICATE_MAX)
    .refine(noLineBreak, LINE_BREAK)
    .refine(printable, { error: 'validation.invalid' }),
  calibratedOn: calendarDate(),
  dueOn: calendarDate(),
};

/** A calibration is due after the day it was calibrated. */
function dueAfterCalibration(v: { calibratedOn: string; dueOn: string }, ctx: z.RefinementCtx) {
  if (isCalendarDate(v.calibratedOn) && isCalendarDate(v.dueOn) && v.dueOn <= v.calibratedOn) {
    ctx.addIssue({ code: 'custom', path: ['dueOn'], message: 'machineData.validation.dueBeforeCalibrated' });
  }
}

export const calibrationInput = z.object(calibrationFields).superRefine(dueAfterCalibration);
export type CalibrationInput = z.input<typeof calibrationInput>;
export type CalibrationValues = z.output<typeof calibrationInput>;

const instrumentFields = {
  kind: z.enum(INSTRUMENT_KINDS, { error: 'validation.oneOf' }),
  /** the top of the instrument's scale, MPa */
  rangeMax: decimalField({ min: 0.001, max: PRESSURE_MAX, scale: 3, required: true }),
  /** accuracy class: ± % of full scale */
  accuracy: decimalField({ min: 0.01, max: 10, scale: 2, required: true }),
};

/** A new instrument with its first calibration. */
export const instrumentCreateInput = z
  .object({ instrumentId: instrumentIdField(), ...instrumentFields, ...calibrationFields })
  .superRefine(dueAfterCalibration);
export type InstrumentCreateInput = z.input<typeof instrumentCreateInput>;
export type InstrumentCreateValues = z.output<typeof instrumentCreateInput>;

/** What an instrument is; its calibrations are added, never edited. */
export const instrumentUpdateInput = z.object(instrumentFields);
export type InstrumentUpdateInput = z.input<typeof instrumentUpdateInput>;
export type InstrumentUpdateValues = z.output<typeof instrumentUpdateInput>;

export const calibration = z.object({
  id: z.string(),
  calibrationCertificate: z.string(),
  calibratedOn: z.string(),
  dueOn: z.string(),
  recordedAt: z.string(),
  recordedBy: z.string(),
});
export type Calibration = z.infer<typeof calibration>;

/** An instrument with its newest calibration's fields, and every calibration newest first. */
export const instrument = z.object({
  id: z.string(),
  machineId: z.string(),
  instrumentId: z.string(),
  kind: z.enum(INSTRUMENT_KINDS),
  rangeMax: z.number(),
  accuracy: z.number(),
  calibrationCertificate: z.string(),
  calibratedOn: z.string(),
  dueOn: z.string(),
  calibrations: z.array(calibration),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Instrument = z.infer<typeof instrument>;
export const instrumentEnvelope = envelope(instrument);
export const instrumentListEnvelope = envelope(z.array(instrument));

/** How a calibration's due date stands on `today` (YYYY-MM-DD): for the colours of the screen. */
export function dueState(dueOn: string, today: string): 'overdue' | 'due-soon' | 'current' {
  if (dueOn < today) return 'overdue';
  const soon = new Date(`${today}T00:00:00Z`);
  soon.setUTCDate(soon.getUTCDate() + CALIBRATION_DUE_SOON_DAYS);
  return dueOn <= soon.toISOString().slice(0, 10) ? 'due-soon' : 'current';
}
