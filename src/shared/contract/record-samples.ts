/**
 * A test record's pressure samples: the points `{ t, p }` a bench measured, and the limits on them and on the
 * holding time they are read against.
 */
import { z } from 'zod';
import { PRESSURE_MAX } from './products';

/** Pressure samples in one record. */
export const MAX_SAMPLES = 10_000;
/** Holding time in seconds: a week is far beyond any pressure test. */
export const HOLDING_SECONDS_MAX = 7 * 24 * 3600;
/** Sample times in seconds from the test's start: at most a week, as the holding time. */
export const SAMPLE_T_MAX = HOLDING_SECONDS_MAX;

export const sample = z.object({ t: z.number(), p: z.number() });
export type Sample = z.infer<typeof sample>;

type PointIssue = { path: (string | number)[]; message: string; code?: 'too_small' | 'too_big'; bound?: number };

/** What is wrong with one point (or with its order after `prev`), or null. */
function pointIssue(pt: unknown, i: number, prevT: number): PointIssue | null {
  if (!pt || typeof pt !== 'object') return { path: [i], message: 'validation.invalid' };
  const { t, p } = pt as { t?: unknown; p?: unknown };
  for (const [name, v, min, max] of [
    ['t', t, 0, SAMPLE_T_MAX],
    ['p', p, -PRESSURE_MAX, PRESSURE_MAX],
  ] as const) {
    if (typeof v !== 'number' || !Number.isFinite(v)) return { path: [i, name], message: 'validation.number' };
    if (v < min) return { path: [i, name], message: 'validation.min', code: 'too_small', bound: min };
    if (v > max) return { path: [i, name], message: 'validation.max', code: 'too_big', bound: max };
  }
  if (i > 0 && (t as number) <= prevT) return { path: [i, 't'], message: 'machineData.validation.samplesOrder' };
  return null;
}

/**
 * Up to MAX_SAMPLES points `{ t, p }`: `t` strictly ascending seconds in [0, SAMPLE_T_MAX], `p` MPa within
 * ±PRESSURE_MAX. Checked by one plain loop rather than a zod object per point: a full batch carries hundreds
 * of thousands of points, and the first bad one is reported (a thousand messages would bury the batch).
 */
export const samplesField = z
  .array(z.unknown(), { error: 'validation.invalid' })
  .max(MAX_SAMPLES, { error: 'machineData.validation.tooManySamples', abort: true })
  .transform((points, ctx): Sample[] => {
    if (points.length > MAX_SAMPLES) return [];
    let prevT = -Infinity;
    for (let i = 0; i < points.length; i++) {
      const issue = pointIssue(points[i], i, prevT);
      if (issue) {
        if (issue.code === 'too_small')
          ctx.addIssue({
            code: 'too_small',
            origin: 'number',
            minimum: issue.bound!,
            inclusive: true,
            path: issue.path,
            message: issue.message,
          });
        else if (issue.code === 'too_big')
          ctx.addIssue({
            code: 'too_big',
            origin: 'number',
            maximum: issue.bound!,
            inclusive: true,
            path: issue.path,
            message: issue.message,
          });
        else ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
        return [];
      }
      prevT = (points[i] as Sample).t;
    }
    return points as Sample[];
  });
