/**
 * Issuing: the release gate (pass, fail, retests, no data, unknown serial), the short-hold flag, reuse of the
 * stored report (same number, same bytes), one number for a certificate's renderings in both languages, a new
 * report when the data changes, and one stored report for 50 identical requests at once.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueReport } from '../src/server/modules/reports/issue';
import { buildTestApp, type TestApp } from './helpers/app';
import { postBatch, record } from './helpers/machine-data';
import { curve, unitWithRecords } from './helpers/reports';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

const issue = (serial: string, language: 'en' | 'zh' = 'en') =>
  issueReport(t.app.ctx.db, { serial, language, publicBaseUrl: t.app.ctx.config.publicBaseUrl });

async function storedCount(serial: string): Promise<number> {
  const r = await t.app.ctx.db.execute(sql`select count(*)::int as n from reports where serial = ${serial}`);
  return Number((r as unknown as { rows: Array<{ n: number }> }).rows[0]!.n);
}

describe('the release gate', () => {
  it('issues when the latest result of every test type passed', async () => {
    const u = await unitWithRecords(t, [{ testType: 'shell' }, { testType: 'seat' }]);
    expect((await issue(u.serial)).status).toBe('issued');
  });

  it('holds a unit whose latest result of one type failed, and after a passing retest issues', async () => {
    const u = await unitWithRecords(t, [{ testType: 'shell' }, { testType: 'seat', result: 'fail', testedAt: '2024-05-01T09:00:00Z' }]);
    expect(await issue(u.serial)).toMatchObject({ status: 'held' });
    expect(await storedCount(u.serial)).toBe(0);
    await postBatch(t.app, u.bench.key, { records: [record({ serial: u.serial, testType: 'seat', testedAt: '2024-05-02T09:00:00Z' })] });
    const r = await issue(u.serial);
    expect(r.status).toBe('issued');
  });

  it('holds a unit whose pass was followed by a failing retest', async () => {
    const u = await unitWithRecords(t, [
      { testType: 'shell', testedAt: '2024-05-01T08:00:00Z' },
      { testType: 'shell', result: 'fail', testedAt: '2024-05-01T10:00:00Z' },
    ]);
    expect(await issue(u.serial)).toMatchObject({ status: 'held' });
  });

  it('answers no-data for a unit without records, not-found for serials no range holds or that are malformed', async () => {
    const u = await unitWithRecords(t, []);
    expect(await issue(u.serial)).toEqual({ status: 'no-data' });
    expect(await issue('ZZNOPE-000001')).toEqual({ status: 'not-found' });
    expect(await issue('not a serial!')).toEqual({ status: 'not-found' });
    expect(await issue('')).toEqual({ status: 'not-found' });
  });

  it('finds the unit by a serial typed in lower case with spaces', async () => {
    const u = await unitWithRecords(t, [{ testType: 'shell' }]);
    const r = await issue(` ${u.serial.toLowerCase()} `);
    expect(r.status === 'issued' && r.report.serial).toBe(u.serial);
  });

  it('holds a bench pass whose samples held for less than the holding time (docs/decisions/0037)', async () => {
    const u = await unitWithRecords(t, [{ testType: 'shell', testPressure: 2.4, holdingSeconds: 60, samples: curve(2.4, 20) }]);
    const r = await issue(u.serial);
    expect(r).toMatchObject({
      status: 'held',
      held: [{ testType: 'shell', kind: 'failed', bench: 'pass', reasons: ['samples-hold-short'] }],
    });
  });
});

describe('stored reports', () => {
  it('reuses the stored report for the same serial, data and language: same id, number and bytes', async () => {
    const u = await unitWithRecords(t, [{ testType: 'shell', samples: curve(2.4, 60) }]);
    const a = await issue(u.serial);
    const b = await issue(u.serial);
    if (a.status !== 'issued' || b.status !== 'issued') throw new Error('not issued');
    expect(b.report.reused).toBe(true);
    expect(b.report.id).toBe(a.report.id);
    expect(b.report.number).toBe(a.report.number);
    expect(b.report.bytes.equals(a.report.bytes)).toBe(true);
  });

  it('renders one certificate in both languages: one number and issue date, two files with their own codes', async () => {
    const u = await unitWithRecords(t, [{ testType: 'shell' }, { testType: 'seat' }]);
    const en = await issue(u.serial, 'en');
    await new Promise((r) => setTimeout(r, 1100)); // a later second, which the shared issue date must not take
    const zh = await issue(u.serial, 'zh');
    if (en.status !== 'issued' || zh.status !== 'issued') throw new Error('not issued');
    expect(zh.report.reused).toBe(false);
    expect(zh.report.number).toBe(en.report.number);
    expect(zh.report.issuedAt.toISOString()).toBe(en.report.issuedAt.toISOString());
    expect(zh.report.id).not.toBe(en.report.id);
    expect(zh.report.code).not.toBe(en.report.code);
    expect(zh.report.bytes.equals(en.report.bytes)).toBe(false);
    // New data is a new certificate, with a new number in either language.
    await postBatch(t.app, u.bench.key, { records: [record({ serial: u.serial, testType: 'seat', testedAt: '2024-06-01T09:00:00Z' })] });
    const zh2 = await issue(u.serial, 'zh');
    expect(zh2.status === 'issued' && zh2.report.number).not.toBe(en.report.number);
  });

  it('gives both languages requested at once, 25 times each, one number and one report each', async () => {
    const u = await unitWithRecords(t, [{ testType: 'shell' }]);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => issue(u.serial, i % 2 ? 'zh' : 'en')));
    const numbers = new Set(results.map((r) => (r.status === 'issued' ? r.report.number : r.status)));
    expect(numbers.size).toBe(1);
    expect(await storedCount(u.serial)).toBe(2);
  }, 60_000);

  it('issues a new report with the next number when the data changes', async () => {
    const u = await unitWithRecords(t, [{ testType: 'shell' }]);
    const a = await issue(u.serial);
    await postBatch(t.app, u.bench.key, { records: [record({ serial: u.serial, testType: 'seat' })] });
    const b = await issue(u.serial);
    if (a.status !== 'issued' || b.status !== 'issued') throw new Error('not issued');
    expect(b.report.id).not.toBe(a.report.id);
    const n = (s: string) => Number(s.slice(-6));
    expect(n(b.report.number)).toBeGreaterThan(n(a.report.number));
    expect(b.report.reused).toBe(false);
  });

  it('stores one report for 50 identical requests at once', async () => {
    const u = await unitWithRecords(t, [{ testType: 'shell' }]);
    const results = await Promise.all(Array.from({ length: 50 }, () => issue(u.serial)));
    const ids = new Set(results.map((r) => (r.status === 'issued' ? r.report.id : r.status)));
    expect(ids.size).toBe(1);
    expect(await storedCount(u.serial)).toBe(1);
  }, 60_000);

  it('numbers certificates sequentially without gaps or twins', async () => {
    const r = await t.app.ctx.db.execute(sql`select distinct number from reports order by number`);
    const numbers = (r as unknown as { rows: Array<{ number: string }> }).rows.map((x) => Number(x.number.slice(-6)));
    expect(numbers.length).toBeGreaterThan(3);
    numbers.forEach((v, i) => expect(v).toBe(i + 1));
  });
});
