/**
 * The release of a serial range by an authorised inspection representative (docs/decisions/0052): what the
 * release gate shows of the range's units before it, and who released it and when. An EN 10204 3.1
 * certificate is issued only for units of a released range.
 */
import { z } from 'zod';
import { envelope } from './common';

/** What the release gate says of a range's units now: passing, held by their tests, without test data. */
export const rangeGateSummary = z.object({
  unitCount: z.number().int(),
  passed: z.number().int(),
  held: z.number().int(),
  noData: z.number().int(),
});
export type RangeGateSummary = z.infer<typeof rangeGateSummary>;

/**
 * A range's release. source 'inspector': released by the named authorised inspector; 'settings': the range
 * existed before inspectors were kept, and its certificates are validated by the name in Settings.
 */
export const rangeRelease = z.object({
  rangeId: z.string(),
  source: z.enum(['inspector', 'settings']),
  inspectorName: z.string(),
  inspectorTitle: z.string(),
  releasedAt: z.string(),
  /** what the gate showed at the release */
  gate: rangeGateSummary,
});
export type RangeRelease = z.infer<typeof rangeRelease>;

/** `GET /api/v1/serial-ranges/{id}/release`: the release (null: not yet) and the gate's summary now. */
export const rangeReleaseView = z.object({
  rangeId: z.string(),
  release: rangeRelease.nullable(),
  gate: rangeGateSummary,
});
export type RangeReleaseView = z.infer<typeof rangeReleaseView>;
export const rangeReleaseEnvelope = envelope(rangeReleaseView);
