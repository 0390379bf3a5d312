/** The calibration rule: which days a calibration covers, and which reason a record gets. */
import { describe, expect, it } from 'vitest';
import { calibrationOn, INSTRUMENT_NOT_CALIBRATED, INSTRUMENT_UNKNOWN, instrumentReasons, testDay } from './calibration';

const book = new Map([
  [
    'PG-01',
    [
      { calibratedOn: '2024-01-10', dueOn: '2024-07-10' },
      { calibratedOn: '2024-08-15', dueOn: '2025-02-15' },
    ],
  ],
]);

describe('calibration', () => {
  it('takes the UTC day of a test time, whatever its offset', () => {
    expect(testDay('2024-07-10T23:59:59.000Z')).toBe('2024-07-10');
    expect(testDay('2024-07-11T07:30:00+08:00')).toBe('2024-07-10');
    expect(testDay(new Date('2024-07-11T00:00:00Z'))).toBe('2024-07-11');
  });

  it('covers both its first and its due day, and none between two calibrations', () => {
    expect(instrumentReasons(true, book, 'PG-01', '2024-01-10T00:00:00.000Z')).toBe(0);
    expect(instrumentReasons(true, book, 'PG-01', '2024-07-10T23:59:00.000Z')).toBe(0);
    expect(instrumentReasons(true, book, 'PG-01', '2024-07-11T00:00:00.000Z')).toBe(INSTRUMENT_NOT_CALIBRATED);
    expect(instrumentReasons(true, book, 'PG-01', '2024-08-15T00:00:00.000Z')).toBe(0);
    expect(calibrationOn(book.get('PG-01')!, '2024-09-01T00:00:00Z')).toEqual({ calibratedOn: '2024-08-15', dueOn: '2025-02-15' });
    expect(calibrationOn(book.get('PG-01')!, '2024-08-01T00:00:00Z')).toBeUndefined();
  });

  it('names an unknown instrument, or none, and judges nothing when not required', () => {
    expect(instrumentReasons(true, book, 'PG-99', '2024-03-01T00:00:00Z')).toBe(INSTRUMENT_UNKNOWN);
    expect(instrumentReasons(true, book, null, '2024-03-01T00:00:00Z')).toBe(INSTRUMENT_UNKNOWN);
    expect(instrumentReasons(true, undefined, 'PG-01', '2024-03-01T00:00:00Z')).toBe(INSTRUMENT_UNKNOWN);
    expect(instrumentReasons(false, undefined, null, '2024-03-01T00:00:00Z')).toBe(0);
  });
});
