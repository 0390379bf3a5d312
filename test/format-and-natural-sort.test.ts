import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatDay, formatNumber, formatPercent, formatShortDay, parseDay } from '../src/shared/format/dates';
import { compareNatural, naturalSortKey } from '../src/shared/format/natural-sort';
import { buildTestApp, type TestApp } from './helpers/app';
import { addProduct, postRange, rangeBody, staffCookie } from './helpers/catalogue';

describe('one date and number style per language', () => {
  const instant = new Date(Date.UTC(2026, 10, 24, 6, 5));
  it('writes days as 24 Nov 2026 and 2026年11月24日, without shifting a calendar day', () => {
    expect(formatDay('en', '2026-11-24')).toBe('24 Nov 2026');
    expect(formatDay('zh', '2026-11-24')).toBe('2026年11月24日');
    expect(formatDay('en', '2026-01-02')).toBe('2 Jan 2026');
    expect(formatShortDay('en', '2026-11-05')).toBe('5 Nov');
    expect(formatShortDay('zh', '2026-11-05')).toBe('11月5日');
    expect(formatDay('en', 'not a day')).toBe('not a day');
  });
  it('writes instants in the zone asked for, with a 24-hour time', () => {
    expect(formatDate('en', instant, 'UTC')).toBe('24 Nov 2026');
    expect(formatDate('zh', instant.toISOString(), 'Asia/Taipei')).toBe('2026年11月24日');
    expect(formatDateTime('en', instant, 'UTC')).toBe('24 Nov 2026, 06:05');
    expect(formatDateTime('zh', instant, 'Asia/Taipei')).toBe('2026年11月24日 14:05');
    // Past midnight in Taipei, still the day before in New York
    const late = new Date(Date.UTC(2026, 10, 24, 17, 30));
    expect(formatDate('en', late, 'Asia/Taipei')).toBe('25 Nov 2026');
    expect(formatDate('en', late, 'America/New_York')).toBe('24 Nov 2026');
    expect(formatDateTime('en', 'garbage')).toBe('garbage');
  });
  it('reads a typed date back in either style, and refuses what is not a calendar day', () => {
    for (const text of [
      '24 Nov 2026',
      '2026年11月24日',
      '2026-11-24',
      '2026/11/24',
      'Nov 24, 2026',
      '24 November 2026',
      ' 2026 / 11 / 24 ',
    ])
      expect(parseDay(text), text).toBe('2026-11-24');
    for (const lang of ['en', 'zh']) expect(parseDay(formatDay(lang, '2024-02-29'))).toBe('2024-02-29');
    for (const text of ['', '31 Feb 2026', '2026-13-01', '24 Foo 2026', 'tomorrow', '2026-11']) expect(parseDay(text), text).toBeNull();
  });

  it('groups thousands and keeps the decimals asked for', () => {
    expect(formatNumber('en', 1234567.891)).toBe('1,234,567.891');
    expect(formatNumber('zh', 1234.5)).toBe('1,234.5');
    expect(formatNumber('en', 2.5, 0)).toBe('3');
    expect(formatPercent('en', 0.9234)).toBe('92.3%');
    expect(formatPercent('zh', 0.5)).toBe('50.0%');
  });

  it("reads the day and time of an instant as Intl does, in the runtime's zone and in UTC", () => {
    const formats = new Map<string | undefined, Intl.DateTimeFormat>();
    const intl = (timeZone?: string) => {
      if (!formats.has(timeZone)) {
        const options = {
          year: 'numeric',
          month: 'numeric',
          day: 'numeric',
          hour: 'numeric',
          minute: 'numeric',
          hourCycle: 'h23',
        } as const;
        formats.set(timeZone, new Intl.DateTimeFormat('en-US', { ...options, timeZone }));
      }
      return formats.get(timeZone)!;
    };
    const parts = (f: Intl.DateTimeFormat, d: Date) => {
      const p = Object.fromEntries(f.formatToParts(d).map((x) => [x.type, Number(x.value)]));
      return { year: p.year!, month: p.month!, day: p.day!, hour: p.hour! % 24, minute: p.minute! };
    };
    const byHand = (language: 'en' | 'zh', d: Date, timeZone?: string) => formatDateTime(language, d, timeZone);
    const expected = (language: 'en' | 'zh', p: ReturnType<typeof parts>) => {
      const time = `${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')}`;
      const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
      return language === 'zh' ? `${p.year}年${p.month}月${p.day}日 ${time}` : `${p.day} ${months[p.month - 1]} ${p.year}, ${time}`;
    };
    // Every 7 h 13 min over ten years crosses each daylight-saving change of the runtime's zone.
    for (let t = Date.UTC(2019, 0, 1); t < Date.UTC(2029, 0, 1); t += 26_000_000) {
      const d = new Date(t);
      for (const timeZone of [undefined, 'UTC', 'Asia/Taipei'])
        expect(byHand('en', d, timeZone), `${d.toISOString()} in ${timeZone}`).toBe(expected('en', parts(intl(timeZone), d)));
      expect(byHand('zh', d)).toBe(expected('zh', parts(intl(), d)));
    }
    expect(formatDate('en', new Date('0033-06-01T12:00:00Z'), 'UTC')).toBe('1 Jun 33');
  });

  it('prints every number as Intl.NumberFormat does in en-GB and zh-TW, rounding halves and signs alike', () => {
    // The formatter is written by hand (a phone's first Intl.NumberFormat is slow); Intl is the reference.
    const values = [0, -0, 0.5, -0.5, 1.5, 2.5, -2.5, 9.9995, 0.0005, -0.0004, 999.9995, 1234567.0005, 0.145, 0.00285];
    values.push(0.99995, 99.95, 1e-6, 1.5e-7, 1e20, 1.2e21, NaN, Infinity, -Infinity, 2 ** 53 + 2);
    let seed = 7;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let i = 0; i < 3000; i++) {
      const v = (random() - 0.3) * 10 ** (Math.floor(random() * 14) - 6);
      const places = i % 5;
      // Every third one a half at the next place, which is where rounding differs if it does.
      values.push(i % 3 ? v : Math.round(v * 10 ** places) / 10 ** places + 5 / 10 ** (places + 1));
    }
    const intl = (locale: string, options: Intl.NumberFormatOptions) => new Intl.NumberFormat(locale, options);
    for (const [language, locale] of [
      ['en', 'en-GB'],
      ['zh', 'zh-TW'],
    ] as const) {
      for (const decimals of [0, 1, 2, 3]) {
        const number = intl(locale, { maximumFractionDigits: decimals });
        // At least as many decimals as a test pressure prints (2 of at most 3), and one fewer.
        const least = Math.max(0, decimals - 1);
        const padded = intl(locale, { minimumFractionDigits: least, maximumFractionDigits: decimals });
        const percent = intl(locale, { style: 'percent', minimumFractionDigits: decimals, maximumFractionDigits: decimals });
        for (const v of values) {
          expect(formatNumber(language, v, decimals), `${v} to ${decimals}`).toBe(number.format(v));
          expect(formatNumber(language, v, decimals, least), `${v} to ${least}–${decimals}`).toBe(padded.format(v));
          expect(formatPercent(language, v, decimals), `${v} as a percentage to ${decimals}`).toBe(percent.format(v));
        }
      }
    }
  });
});

describe('natural order of names with numbers', () => {
  it('puts DN25 before DN200 and compares case-insensitively', () => {
    const names = ['DN200 Gate Valve', 'dn25 Ball Valve', 'DN25 Ball Valve', 'DN3 Check', 'PN100', 'PN16', 'Butterfly'];
    expect([...names].sort(compareNatural)).toEqual([
      'Butterfly',
      'DN3 Check',
      'DN25 Ball Valve',
      'dn25 Ball Valve',
      'DN200 Gate Valve',
      'PN16',
      'PN100',
    ]);
    expect(naturalSortKey('DN25')).toBe('dn000000000025');
  });
});

describe('lists and exports sort product names naturally (on this database)', () => {
  let t: TestApp;
  let cookie: string;
  const names = ['NSX DN200 Gate', 'NSX DN25 Ball', 'NSX DN3 Check', 'NSX DN1000 Butterfly', 'NSX dn50 Globe'];
  const natural = ['NSX DN3 Check', 'NSX DN25 Ball', 'NSX dn50 Globe', 'NSX DN200 Gate', 'NSX DN1000 Butterfly'];
  beforeAll(async () => {
    t = await buildTestApp();
    cookie = await staffCookie(t);
    for (const [i, name] of names.entries()) {
      const p = await addProduct(t.app, cookie, { name, pressureClass: ['PN100', 'PN16', 'PN10', 'CL150', 'CL1500'][i] });
      const res = await postRange(t.app, cookie, rangeBody(p.id, `NSX${i}-1`, `NSX${i}-5`, 5));
      expect(res.statusCode).toBe(201);
    }
  });
  afterAll(() => t.close());
  const get = (url: string) => t.app.inject({ url, headers: { cookie } });

  it('in the products list, both directions, and by pressure class', async () => {
    const asc = (await get('/api/v1/products?q=NSX&sort=name&order=asc')).json().data.items.map((p: { name: string }) => p.name);
    expect(asc).toEqual(natural);
    const desc = (await get('/api/v1/products?q=NSX&sort=name&order=desc')).json().data.items.map((p: { name: string }) => p.name);
    expect(desc).toEqual([...natural].reverse());
    const classes = (await get('/api/v1/products?q=NSX&sort=pressureClass'))
      .json()
      .data.items.map((p: { pressureClass: string }) => p.pressureClass);
    expect(classes).toEqual(['CL150', 'CL1500', 'PN10', 'PN16', 'PN100']);
  });

  it('in the products export and the serial ranges list and export', async () => {
    const csv = (await get('/api/v1/products/export.csv?q=NSX&sort=name')).body.trim().split('\r\n').slice(1);
    expect(csv.map((l) => natural.findIndex((n) => l.includes(n)))).toEqual([0, 1, 2, 3, 4]);
    const ranges = (await get('/api/v1/serial-ranges?q=NSX&sort=productName&order=asc')).json().data.items;
    expect(ranges.map((r: { productName: string }) => r.productName)).toEqual(natural);
    const rangeCsv = (await get('/api/v1/serial-ranges/export.csv?q=NSX&sort=productName&order=desc')).body.trim().split('\r\n').slice(1);
    expect(rangeCsv.map((l) => natural.findIndex((n) => l.includes(n)))).toEqual([4, 3, 2, 1, 0]);
  });

  it('in the benches list', async () => {
    const admin = await staffCookie(t, { role: 'admin' });
    for (const name of ['NSX Bench 10', 'NSX Bench 2', 'NSX Bench 1'])
      expect(
        (await t.app.inject({ method: 'POST', url: '/api/v1/machines', headers: { cookie: admin }, payload: { name } })).statusCode,
      ).toBe(201);
    const res = await t.app.inject({ url: '/api/v1/machines?q=NSX&sort=name', headers: { cookie: admin } });
    expect(res.json().data.items.map((m: { name: string }) => m.name)).toEqual(['NSX Bench 1', 'NSX Bench 2', 'NSX Bench 10']);
  });
});
