/**
 * The delivery page's release logic, without a browser: who sees Release, the progress bar's share, the
 * held units read from a refused release's 409 (and nothing from other failures), and the reasons in
 * words in both languages.
 */
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import type { DeliveryGate } from '../src/shared/contract/orders';
import { translate, type Language } from '../src/shared/i18n/index';
import { ApiError } from '../src/web/lib/api';
import {
  canRelease,
  certificateHref,
  heldOfRefusal,
  holdText,
  holdTexts,
  releaseErrorText,
  releasePercent,
} from '../src/web/features/orders/components/release-view';

const tOf = (lang: Language) => ((key: string, params?: Record<string, unknown>) => translate(lang, key, params)) as unknown as TFunction;

const gate: DeliveryGate = {
  deliveryId: '6f1c7e0e-2b8a-4c55-9d35-1d0c2f7a9b10',
  status: 'open',
  unitCount: 2,
  passed: 1,
  held: 1,
  units: [
    { serial: 'VB-0001', line: 1, tag: 'FV-1', productName: 'Ball Valve', productNameZh: '', status: 'pass', held: [] },
    {
      serial: 'VB-0002',
      line: 1,
      tag: '',
      productName: 'Ball Valve',
      productNameZh: '',
      status: 'held',
      held: [{ testType: 'shell', kind: 'failed', reasons: ['hold-short'] }],
    },
  ],
};

const refusal = (httpStatus: number, data: unknown) =>
  new ApiError({ status: 'FAILED_PRECONDITION', httpStatus, key: 'orders.releaseHeld', message: 'held', data });

describe('the release on the delivery page', () => {
  it('is offered on an open delivery with units to those who may update it', () => {
    expect(canRelease({ status: 'open', unitCount: 3 }, true)).toBe(true);
    expect(canRelease({ status: 'open', unitCount: 0 }, true)).toBe(false);
    expect(canRelease({ status: 'open', unitCount: 3 }, false)).toBe(false);
    for (const status of ['releasing', 'released', 'cancelled'] as const) expect(canRelease({ status, unitCount: 3 }, true)).toBe(false);
  });

  it('shows the share of certificates issued, bounded, and none for a delivery without units', () => {
    expect(releasePercent({ issuedCount: 0, unitCount: 8 })).toBe(0);
    expect(releasePercent({ issuedCount: 3, unitCount: 8 })).toBe(38);
    expect(releasePercent({ issuedCount: 8, unitCount: 8 })).toBe(100);
    expect(releasePercent({ issuedCount: 9, unitCount: 8 })).toBe(100);
    expect(releasePercent({ issuedCount: 0, unitCount: 0 })).toBe(0);
  });

  it("reads the held units from a 409's gate, and nothing from another refusal or a malformed body", () => {
    expect(heldOfRefusal(refusal(409, gate))).toEqual(gate);
    expect(heldOfRefusal(refusal(400, gate))).toBeNull();
    expect(heldOfRefusal(refusal(409, { units: 'nope' }))).toBeNull();
    expect(heldOfRefusal(refusal(409, undefined))).toBeNull();
    expect(heldOfRefusal(new Error('offline'))).toBeNull();
  });

  it('says why a unit is held in either language, as the gate view does', () => {
    const en = tOf('en');
    const zh = tOf('zh');
    const failed = gate.units[1]!.held[0]!;
    expect(holdText(en, 'en', failed)).toBe(`Shell failed: ${translate('en', 'standards.reason.hold-short')}`);
    expect(holdText(zh, 'zh', failed)).toContain(translate('zh', 'machineScreens.testTypes.shell'));
    expect(holdText(en, 'en', { testType: 'seat', kind: 'missing', reasons: [] })).toBe(
      translate('en', 'orderScreens.gate.missing', { test: translate('en', 'machineScreens.testTypes.seat') }),
    );
    expect(holdTexts(zh, 'zh', { held: [] })).toEqual([translate('zh', 'orderScreens.gate.noData')]);
    // Held for its materials: the part, and the heat when it is on hold.
    expect(holdText(en, 'en', { testType: null, kind: 'untraced', part: 'body', heat: null, reasons: [] })).toBe('Body: no heat assigned');
    expect(holdText(en, 'en', { testType: null, kind: 'untraced', part: 'bonnet', heat: 'W24-1190', reasons: [] })).toBe(
      'Bonnet: heat W24-1190 is on hold',
    );
    expect(holdText(zh, 'zh', { testType: null, kind: 'untraced', part: 'bonnet', heat: 'W24-1190', reasons: [] })).toBe(
      '閥蓋：爐號 W24-1190 暫停使用',
    );
    for (const lang of ['en', 'zh'] as const)
      for (const text of holdTexts(tOf(lang), lang, gate.units[1]!)) expect(text).not.toMatch(/orderScreens|standards\.|machineScreens/);
  });

  it('says why the last release stopped: a unit held after the gate by its serial, anything else as stored', () => {
    expect(releaseErrorText(tOf('en'), 'held:VB-0002')).toBe(translate('en', 'orderScreens.release.heldAfterGate', { serial: 'VB-0002' }));
    expect(releaseErrorText(tOf('zh'), 'held:VB-0002')).toContain('VB-0002');
    expect(releaseErrorText(tOf('en'), 'The report pool is full')).toBe('The report pool is full');
  });

  it("opens a unit's certificate as the Searches screen does, by its report id", () => {
    expect(certificateHref('R 1/2')).toBe('/api/v1/public/reports/R%201%2F2.pdf');
  });
});
