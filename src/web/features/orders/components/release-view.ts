/**
 * What the delivery page shows of a release, as plain functions: who may start one, its progress, the held
 * units a refused release answers (409, src/shared/contract/orders.ts deliveryReleaseHeld), why the gate holds
 * a unit in words, and where staff open a unit's certificate.
 */
import type { TFunction } from 'i18next';
import { enumerate } from '../../../../shared/i18n/punctuation';
import { deliveryGate, type DeliveryDetail, type DeliveryGate } from '../../../../shared/contract/orders';
import { ApiError } from '../../../lib/api';
import { untracedText } from '../../../lib/untraced-text';

export type GateUnit = DeliveryGate['units'][number];

/** A release starts on an open delivery with units, by someone who may update deliveries. */
export function canRelease(d: Pick<DeliveryDetail, 'status' | 'unitCount'>, mayUpdate: boolean): boolean {
  return mayUpdate && d.status === 'open' && d.unitCount > 0;
}

/** Issued of all, 0–100, for the progress bar; a delivery without units shows none done. */
export function releasePercent(d: Pick<DeliveryDetail, 'issuedCount' | 'unitCount'>): number {
  if (d.unitCount <= 0) return 0;
  return Math.min(100, Math.max(0, Math.round((d.issuedCount / d.unitCount) * 100)));
}

/** The gate a refused release carries (409 with the held units), or null for any other failure. */
export function heldOfRefusal(err: unknown): DeliveryGate | null {
  if (!(err instanceof ApiError) || err.httpStatus !== 409) return null;
  const gate = deliveryGate.safeParse(err.data);
  return gate.success ? gate.data : null;
}

/** "Shell failed: leakage above the allowed", "Seat: no test yet", "No test data yet". */
export function holdText(t: TFunction, language: string, h: GateUnit['held'][number]): string {
  const test = h.testType ? t(`machineScreens.testTypes.${h.testType}`) : '';
  if (h.kind === 'no-data') return t('orderScreens.gate.noData');
  if (h.kind === 'unreleased') return t('orderScreens.gate.unreleased');
  if (h.kind === 'untraced') return untracedText(t, h);
  if (h.kind === 'missing') return t('orderScreens.gate.missing', { test });
  if (h.kind === 'closure-one-side')
    return t('orderScreens.gate.closureOneSide', { test, side: t(`machineScreens.sides.${h.side ?? 'A'}`) });
  const why = enumerate(
    language,
    h.reasons.map((r) => t(`standards.reason.${r}`)),
  );
  return why ? t('orderScreens.gate.failedWhy', { test, why }) : t('orderScreens.gate.failed', { test });
}

/** Every reason a unit is held, in words; a unit held without a reason has no test data. */
export function holdTexts(t: TFunction, language: string, u: Pick<GateUnit, 'held'>): string[] {
  return u.held.length > 0 ? u.held.map((h) => holdText(t, language, h)) : [t('orderScreens.gate.noData')];
}

/**
 * Why the last release stopped, in words: the worker records `held:<serial>` when a unit is held after
 * the gate had passed it (release-worker.ts); anything else is shown as stored.
 */
export function releaseErrorText(t: TFunction, error: string): string {
  if (error.startsWith('held:')) return t('orderScreens.release.heldAfterGate', { serial: error.slice('held:'.length) });
  return error;
}

/** Staff open a certificate as the Searches screen does: its stored PDF by the report's id. */
export function certificateHref(reportId: string): string {
  return `/api/v1/public/reports/${encodeURIComponent(reportId)}.pdf`;
}
