import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { serialRangeCsvRow, serialRangeInput } from '../src/shared/contract/serials';
import { formatSerial, normaliseSerial, parseSerial, serialAfter, SERIAL_MAX_WIDTH, unitsBetween } from '../src/shared/serial';

const prefixChar = fc.constantFrom(...'ABCXYZ0123456789-_/.'.split(''));
const letterish = fc.constantFrom(...'ABCXYZ-_/.'.split(''));
/** A valid prefix: empty, or any prefix characters ending in a non-digit. */
const prefix = fc.oneof(
  fc.constant(''),
  fc.tuple(fc.array(prefixChar, { maxLength: 12 }), letterish).map(([a, b]) => a.join('') + b),
);
const parts = fc
  .tuple(prefix, fc.integer({ min: 1, max: SERIAL_MAX_WIDTH }))
  .chain(([p, width]) =>
    fc.record({ prefix: fc.constant(p), width: fc.constant(width), number: fc.bigInt({ min: 0n, max: 10n ** BigInt(width) - 1n }) }),
  );

describe('serial grammar', () => {
  it('parse ∘ format is the identity on valid parts', () => {
    fc.assert(
      fc.property(parts, (p) => {
        expect(parseSerial(formatSerial(p))).toEqual(p);
      }),
    );
  });

  it('format ∘ parse gives back the normalised text', () => {
    fc.assert(
      fc.property(parts, (p) => {
        const s = formatSerial(p);
        expect(formatSerial(parseSerial(s)!)).toBe(s);
      }),
    );
  });

  it('normalisation is idempotent and parsing ignores case, spaces and full-width forms', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        expect(normaliseSerial(normaliseSerial(s))).toBe(normaliseSerial(s));
      }),
    );
    fc.assert(
      fc.property(parts, fc.array(fc.constantFrom(' ', '\t', '\n', '\u3000'), { maxLength: 3 }), (p, spaces) => {
        const s = formatSerial(p);
        const messy = ` ${spaces.join('')}${s
          .toLowerCase()
          .split('')
          .join(spaces[0] ?? '')} `;
        expect(parseSerial(messy)).toEqual(p);
      }),
    );
    expect(parseSerial('ｖｂ２３１１－０００１２３')).toEqual({ prefix: 'VB2311-', number: 123n, width: 6 });
    // Found by the properties: a removed space joins a letter and a combining mark; upper-casing decomposes.
    for (const tricky of ['e \u0301', 'a\u00a8', '\u0390', 'x \u0308\u0301']) {
      expect(normaliseSerial(normaliseSerial(tricky))).toBe(normaliseSerial(tricky));
    }
  });

  it('takes a short way for printable ASCII without spaces, to the same normal form', () => {
    const asciiSerial = fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)) });
    fc.assert(
      fc.property(asciiSerial, (s) => {
        expect(normaliseSerial(s)).toBe(s.normalize('NFKC').toUpperCase().normalize('NFKC').replace(/\s+/gu, ''));
      }),
    );
    expect(normaliseSerial('bf300-000002')).toBe('BF300-000002');
    // Not the short way: a space, a full-width form, a non-ASCII letter.
    expect(normaliseSerial('bf300 000002')).toBe('BF300000002');
    expect(normaliseSerial('ｂｆ３００')).toBe('BF300');
    expect(normaliseSerial('ß1')).toBe('SS1');
  });

  it('splits the documented example and accepts an empty prefix', () => {
    expect(parseSerial('VB2311-000123')).toEqual({ prefix: 'VB2311-', number: 123n, width: 6 });
    expect(parseSerial(' vb 2311-000 123 ')).toEqual({ prefix: 'VB2311-', number: 123n, width: 6 });
    expect(parseSerial('000123')).toEqual({ prefix: '', number: 123n, width: 6 });
    expect(parseSerial('999999999999999999')).toEqual({ prefix: '', number: 999999999999999999n, width: 18 });
  });

  it('refuses what does not follow it', () => {
    for (const bad of [
      '',
      '   ',
      'VB-',
      'ABC',
      '1234567890123456789',
      'A1234567890123456789',
      'VB#12',
      'VB 12 x',
      'Ä12',
      `${'A'.repeat(64)}1`,
    ]) {
      expect(parseSerial(bad), bad).toBeNull();
    }
    fc.assert(
      fc.property(fc.string(), (s) => {
        const p = parseSerial(s);
        if (p) expect(formatSerial(p)).toBe(normaliseSerial(s));
      }),
    );
  });

  it('counts units and steps within a series', () => {
    fc.assert(
      fc.property(parts, fc.bigInt({ min: 0n, max: 10_000n }), (p, k) => {
        const start = formatSerial(p);
        const end = serialAfter(start, k);
        if (end === null) return;
        expect(unitsBetween(start, end)).toBe(k + 1n);
      }),
    );
    expect(unitsBetween('VB-001', 'VB-0001')).toBeNull();
    expect(unitsBetween('VB-010', 'VB-001')).toBeNull();
    expect(serialAfter('VB-999', 1n)).toBeNull();
  });
});

describe('range schema', () => {
  const ok = { productId: 'p', startSerial: ' vb-0001', endSerial: 'VB-0100 ', totalUnits: '100', productionDate: '2024-01-31' };
  const issues = (v: unknown) => {
    const r = serialRangeInput.safeParse(v);
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}:${i.message}`);
  };
  it('normalises serials and coerces Total Units', () => {
    expect(serialRangeInput.parse(ok)).toMatchObject({ startSerial: 'VB-0001', endSerial: 'VB-0100', totalUnits: 100 });
  });
  it('names each broken rule', () => {
    expect(issues({ ...ok, endSerial: 'VC-0100' })).toEqual(['endSerial:serials.validation.sameSeries']);
    expect(issues({ ...ok, endSerial: 'VB-100' })).toEqual(['endSerial:serials.validation.sameSeries']);
    expect(issues({ ...ok, startSerial: 'VB-0200' })).toEqual(['endSerial:serials.validation.endBeforeStart']);
    expect(issues({ ...ok, totalUnits: 99 })).toEqual(['totalUnits:serials.validation.totalMismatch']);
    expect(issues({ ...ok, startSerial: 'A00000000', endSerial: 'A10000000', totalUnits: 10000001 })).toContain(
      'totalUnits:validation.max',
    );
    expect(issues({ ...ok, startSerial: 'A00000000', endSerial: 'A10000000', totalUnits: 1 })).toEqual([
      'endSerial:serials.validation.tooManyUnits',
    ]);
    expect(issues({ ...ok, startSerial: 'VB-' })).toEqual(['startSerial:serials.validation.serial']);
    expect(issues({ ...ok, productionDate: '2024-02-30' })).toEqual(['productionDate:validation.date']);
    expect(issues({ ...ok, productionDate: '2999-01-01' })).toEqual(['productionDate:serials.validation.futureDate']);
  });
  it('computes Total Units of an import row when the cell is empty', () => {
    const row = serialRangeCsvRow.parse({ product: 'X', startSerial: 'A1', endSerial: 'A9', totalUnits: '', productionDate: '2024-01-01' });
    expect(row.totalUnits).toBeNull();
    expect(
      serialRangeCsvRow.safeParse({ product: 'X', startSerial: 'A1', endSerial: 'A9', totalUnits: '8', productionDate: '2024-01-01' })
        .success,
    ).toBe(false);
  });
});
