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
