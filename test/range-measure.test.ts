/** The range rules as the form's live Total Units and the route's schema both read them. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { serialRangeInput } from '../src/shared/contract/serials';
import { MAX_RANGE_UNITS, measureRange } from '../src/shared/serial';
import { computeTotalUnits } from '../src/web/features/serials/components/total-units';

const today = new Date().toISOString().slice(0, 10);

describe('measureRange', () => {
  it('counts end − start + 1 after normalising what was typed', () => {
    expect(measureRange(' vb2311-000001', 'VB2311- 000100')).toMatchObject({ ok: true, units: 100n });
    expect(measureRange('VB-7', 'VB-7')).toMatchObject({ ok: true, units: 1n });
  });

  it.each([
    ['', 'VB-001', 'badStart'],
    ['VB-001', 'VB-', 'badEnd'],
    ['VA-001', 'VB-010', 'prefixDiffers'],
    ['VB-001', 'VB-0010', 'widthDiffers'],
    ['VB-010', 'VB-001', 'endBeforeStart'],
    ['VB-00000000', `VB-${String(MAX_RANGE_UNITS).padStart(8, '0')}`, 'tooMany'],
  ])('%s … %s: %s', (start, end, reason) => {
    expect(measureRange(start, end)).toMatchObject({ ok: false, reason });
  });

  it('allows exactly the maximum number of units', () => {
    expect(measureRange('VB-00000001', `VB-${String(MAX_RANGE_UNITS).padStart(8, '0')}`)).toMatchObject({
      ok: true,
      units: BigInt(MAX_RANGE_UNITS),
    });
  });
});

describe('Total Units in the form', () => {
  it('is empty until both serials are typed', () => {
    expect(computeTotalUnits('VB-001', ' ')).toEqual({ kind: 'empty' });
  });

  it('says why there is no total, with what differs', () => {
    expect(computeTotalUnits('VA-001', 'VB-010')).toEqual({
      kind: 'reason',
      key: 'serials.total.prefixDiffers',
      params: { start: 'VA-', end: 'VB-' },
    });
    expect(computeTotalUnits('VB-001', 'VB-0010')).toEqual({
      kind: 'reason',
      key: 'serials.total.widthDiffers',
      params: { start: 3, end: 4 },
    });
  });

  it('agrees with the server: the total the form shows is the one the schema accepts', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_000 }), fc.integer({ min: 0, max: 999 }), (from, span) => {
        const start = `VB2311-${String(from).padStart(6, '0')}`;
        const end = `VB2311-${String(from + span).padStart(6, '0')}`;
        const shown = computeTotalUnits(start, end);
        expect(shown).toEqual({ kind: 'units', units: BigInt(span + 1) });
        const parsed = serialRangeInput.safeParse({
          productId: 'p',
          startSerial: start,
          endSerial: end,
          totalUnits: span + 1,
          productionDate: today,
        });
        expect(parsed.success).toBe(true);
        const wrong = serialRangeInput.safeParse({
          productId: 'p',
          startSerial: start,
          endSerial: end,
          totalUnits: span + 2,
          productionDate: today,
        });
        expect(wrong.success).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});
