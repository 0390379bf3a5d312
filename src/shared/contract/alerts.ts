/**
 * Quality alerts (docs/decisions/0065-quality-alerts.md): what raises them, the inbox's filters, the
 * acknowledgement with its assignable cause and corrective action, and the thresholds per product or bench.
 */
import { z } from 'zod';
import { RUN_RULES } from '../chart/run-rules';
import { envelope, listEnvelope, listQuery, MSG, requiredText } from './common';
import { TEST_TYPES } from './machine-data';
import { CONTROL_MEASURES } from './quality';
import { isDay } from './days';

/**
 * rule: a run rule broken by the newest points of a control chart; yield: first-pass yield of the last N
 * units below its threshold; silence: a bench quiet for longer than its gap in working hours;
 * disagreement: a bench pass the standard rejects; calibration: an instrument due within 30 days or past
 * due; deliveryHeld: a unit the release gate holds in a delivery not yet released; webhookDisabled: an
 * endpoint switched off after failing for a day.
 */
export const ALERT_KINDS = ['rule', 'yield', 'silence', 'disagreement', 'calibration', 'deliveryHeld', 'webhookDisabled'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
export const ALERT_STATUSES = ['open', 'acknowledged'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

/** How a user hears of alerts by email: each at once, a digest once a day, or not at all (users.alert_mail, chosen on the alerts page). */
export const ALERT_MAIL_CHOICES = ['instant', 'digest', 'none'] as const;
export type AlertMailChoice = (typeof ALERT_MAIL_CHOICES)[number];

export const alertMailInput = z.object({ alertMail: z.enum(ALERT_MAIL_CHOICES, { error: 'validation.oneOf' }) });
export type AlertMailInput = z.output<typeof alertMailInput>;
export const alertMailEnvelope = envelope(alertMailInput);

/** Calibrations due within this many days raise an alert (and again when past due). */
export const CALIBRATION_NOTICE_DAYS = 30;

export const alertsQuery = listQuery(['raisedAt'] as const)
  .pick({ page: true, pageSize: true })
  .extend({
    kind: z.enum(ALERT_KINDS, { error: 'validation.oneOf' }).optional(),
    status: z.enum(ALERT_STATUSES, { error: 'validation.oneOf' }).optional(),
    productId: z.uuid({ error: MSG.invalid }).optional(),
    machineId: z.uuid({ error: MSG.invalid }).optional(),
  });
export type AlertsQuery = z.output<typeof alertsQuery>;

/** The facts an alert's summary is written from (each kind fills its own). */
export const alertDetail = z.object({
  testType: z.enum(TEST_TYPES).optional(),
  measure: z.enum(CONTROL_MEASURES).optional(),
  rules: z.array(z.enum(RUN_RULES)).optional(),
  /** the newest point's time and value, and the baseline's centre */
  at: z.string().optional(),
  value: z.number().optional(),
  centre: z.number().optional(),
  /** the baseline the rule read, when the engineer set one */
  baselineFrom: z.string().optional(),
  baselineTo: z.string().optional(),
  /** yield: units counted, first-pass ones, threshold (0..1) */
  units: z.number().int().optional(),
  firstPass: z.number().int().optional(),
  threshold: z.number().optional(),
  /** silence: minutes since the bench's last test, and its gap */
  minutes: z.number().int().optional(),
  gapMinutes: z.number().int().optional(),
  /** calibration: the instrument's id on its bench and the due day; due or overdue */
  instrument: z.string().optional(),
  dueOn: z.string().optional(),
  overdue: z.boolean().optional(),
  /** deliveryHeld: the delivery's number and id */
  delivery: z.string().optional(),
  deliveryId: z.string().optional(),
  /** webhookDisabled: the endpoint */
  webhookId: z.string().optional(),
  url: z.string().optional(),
  /** the bench's result and the standard's reasons (disagreement) */
  reasons: z.array(z.string()).optional(),
});
export type AlertDetail = z.infer<typeof alertDetail>;

export const alertItem = z.object({
  id: z.string(),
  kind: z.enum(ALERT_KINDS),
  status: z.enum(ALERT_STATUSES),
  raisedAt: z.string(),
  /** one sentence in the reader's language */
  summary: z.string(),
  productId: z.string().nullable(),
  productName: z.string().nullable(),
  machineId: z.string().nullable(),
  machineName: z.string().nullable(),
  serial: z.string().nullable(),
  recordId: z.string().nullable(),
  detail: alertDetail,
  /** where the facts behind it are: the chart, the records, the unit, the bench, the delivery (paths of the web app) */
  links: z.object({
    chart: z.string().optional(),
    records: z.string().optional(),
    unit: z.string().optional(),
    machine: z.string().optional(),
    delivery: z.string().optional(),
    heldUnits: z.string().optional(),
    webhook: z.string().optional(),
  }),
  acknowledged: z.object({ at: z.string(), by: z.string(), cause: z.string(), action: z.string() }).nullable(),
});
export type AlertItem = z.infer<typeof alertItem>;
export const alertListEnvelope = listEnvelope(alertItem);
export const alertEnvelope = envelope(alertItem);
export const alertCountEnvelope = envelope(z.object({ open: z.number().int() }));

export const acknowledgeInput = z.object({
  cause: requiredText(2000),
  action: requiredText(2000),
});
export type AcknowledgeInput = z.output<typeof acknowledgeInput>;

/** A number field the form may leave blank (the alert switched off): '' and null are null. */
const blankIsNull = <T extends z.ZodType>(inner: T) => z.preprocess((v) => (v === '' || v === undefined ? null : v), inner.nullable());

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const dayField = blankIsNull(z.string({ error: MSG.invalid }).trim().refine(isDay, { error: 'validation.date' })).default(null);
const timeField = z.string({ error: MSG.required }).trim().regex(TIME, { error: 'alerts.validation.time' });
const isTimeZone = (tz: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};

/** A product's or a bench's thresholds; a null figure switches that alert off. */
export const thresholdsInput = z
  .object({
    yieldUnits: blankIsNull(
      z.coerce
        .number({ error: MSG.invalid })
        .int({ error: MSG.invalid })
        .min(5, { error: 'alerts.validation.yieldUnits' })
        .max(5000, { error: 'alerts.validation.yieldUnits' }),
    ),
    /** percent, as the form shows it */
    yieldMinPercent: blankIsNull(
      z.coerce
        .number({ error: MSG.invalid })
        // 0.01 %: the smallest step the stored fraction keeps (numeric(5, 4), 0043_alerts.sql); below it a
        // positive figure would be stored as 0, which the table refuses.
        .min(0.01, { error: 'alerts.validation.percent' })
        .max(100, { error: 'alerts.validation.percent' })
        // Hundredths, as stored: 0.015 would be kept as 0.02, a threshold nobody entered.
        .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-7, { error: 'alerts.validation.percent' }),
    ),
    silenceMinutes: blankIsNull(
      z.coerce
        .number({ error: MSG.invalid })
        .int({ error: MSG.invalid })
        .min(10, { error: 'alerts.validation.silence' })
        .max(10080, { error: 'alerts.validation.silence' }),
    ).default(null),
    workDays: z.array(z.number().int().min(1).max(7), { error: MSG.invalid }).max(7).default([1, 2, 3, 4, 5]),
    workStart: timeField.default('08:00'),
    workEnd: timeField.default('17:00'),
    timeZone: z.string().trim().max(64).refine(isTimeZone, { error: 'alerts.validation.timeZone' }).default('Asia/Taipei'),
    /** the days the run rules' limits come from; none: the 90 days before the 30 judged */
    baselineFrom: dayField,
    baselineTo: dayField,
  })
  .superRefine((v, ctx) => {
    if ((v.yieldUnits === null) !== (v.yieldMinPercent === null)) {
      const path = v.yieldUnits === null ? 'yieldUnits' : 'yieldMinPercent';
      ctx.addIssue({ code: 'custom', path: [path], message: 'alerts.validation.yieldBoth' });
    }
    if (v.workStart >= v.workEnd) ctx.addIssue({ code: 'custom', path: ['workEnd'], message: 'alerts.validation.workEnd' });
    if ((v.baselineFrom === null) !== (v.baselineTo === null)) {
      const path = v.baselineFrom === null ? 'baselineFrom' : 'baselineTo';
      ctx.addIssue({ code: 'custom', path: [path], message: 'validation.required' });
    } else if (v.baselineFrom !== null && v.baselineTo !== null && v.baselineFrom > v.baselineTo) {
      ctx.addIssue({ code: 'custom', path: ['baselineTo'], message: 'quality.validation.toBeforeFrom' });
    }
  });
export type ThresholdsInput = z.output<typeof thresholdsInput>;

export const thresholds = z.object({
  yieldUnits: z.number().int().nullable(),
  yieldMinPercent: z.number().nullable(),
  silenceMinutes: z.number().int().nullable(),
  workDays: z.array(z.number().int()),
  workStart: z.string(),
  workEnd: z.string(),
  timeZone: z.string(),
  baselineFrom: z.string().nullable(),
  baselineTo: z.string().nullable(),
});
export type Thresholds = z.infer<typeof thresholds>;
export const thresholdsEnvelope = envelope(thresholds);
