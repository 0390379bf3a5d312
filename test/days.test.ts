/** The one day check of the contract (src/shared/contract/days.ts), which every date field uses. */
import { describe, expect, it } from 'vitest';
import { isDay } from '../src/shared/contract/days';
import { isCalendarDate } from '../src/shared/contract/serials';

describe('isDay', () => {
  it.each(['2024-02-29', '2026-12-31', '1970-01-01', '0001-01-01', '9999-12-31'])('takes %s', (s) => {
    expect(isDay(s)).toBe(true);
  });
  it.each([
    '2023-02-29',
    '2024-02-30',
    '2024-13-01',
    '2024-00-10',
    '0000-00-00',
    '2024-1-01',
    ' 2024-01-01',
    '2024-01-01T00:00',
    '',
    'today',
  ])('refuses %j without throwing', (s) => {
    expect(isDay(s)).toBe(false);
  });
  it('a production or calibration date is a day from 1900 on', () => {
    expect([isCalendarDate('1899-12-31'), isCalendarDate('1900-01-01'), isCalendarDate('0000-00-00')]).toEqual([false, true, false]);
  });
});
