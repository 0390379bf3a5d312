/**
 * A stored report is found first, by one statement over the reuse key's inputs and the unique reuse index
 * (findStoredReport), and only while every input is unchanged: new data, a product or settings change, or
 * another base URL give no stored report, and issuing then stores a new one.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findStoredReport, issueReport } from '../src/server/modules/reports/issue';
import { buildTestApp, type TestApp } from './helpers/app';
import { postBatch, record } from './helpers/machine-data';
import { unitWithRecords } from './helpers/reports';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

const issue = (serial: string, language: 'en' | 'zh' = 'en') =>
  issueReport(t.app.ctx.db, { serial, language, publicBaseUrl: t.app.ctx.config.publicBaseUrl });
const stored = (serial: string, language: 'en' | 'zh' = 'en', publicBaseUrl = t.app.ctx.config.publicBaseUrl) =>
  findStoredReport(t.app.ctx.db, { serial, language, publicBaseUrl });

describe('the stored report found first', () => {
  it('finds the report just issued, by any spelling of the serial, in its language only', async () => {
    const u = await unitWithRecords(t, [{ testType: 'shell' }, { testType: 'seat', testedAt: '2024-05-01T09:00:00Z' }]);
    expect(await stored(u.serial)).toBeNull();
    const first = await issue(u.serial);
    if (first.status !== 'issued') throw new Error(first.status);
    expect(first.report.reused).toBe(false);
    expect((await stored(u.serial))?.id).toBe(first.report.id);
    expect((await stored(` ${u.serial.toLowerCase()} `))?.id).toBe(first.report.id);
    expect(await stored(u.serial, 'zh')).toBeNull();
    expect(await stored(u.serial, 'en', 'https://other.example')).toBeNull();
    const again = await issue(u.serial);
    expect(again).toMatchObject({ status: 'issued', report: { id: first.report.id, reused: true } });
  });

  it('finds nothing once the data, the judgement, the product or the settings change', async () => {
    const u = await unitWithRecords(t, [{ testType: 'shell' }, { testType: 'seat', testedAt: '2024-05-01T09:00:00Z' }]);
    const ids: string[] = [];
    const issueNew = async () => {
      expect(await stored(u.serial)).toBeNull();
      const r = await issue(u.serial);
      if (r.status !== 'issued') throw new Error(r.status);
      expect(r.report.reused).toBe(false);
      expect((await stored(u.serial))?.id).toBe(r.report.id);
      ids.push(r.report.id);
    };
    await issueNew();
    await postBatch(t.app, u.bench.key, {
      records: [record({ serial: u.serial, testType: 'backseat', testedAt: '2024-05-02T09:00:00Z' })],
    });
    await issueNew();
    await t.app.ctx.db.execute(
      sql`UPDATE test_records SET reasons = 0, verdict = 'conforms' WHERE serial = ${u.serial} AND test_type = 'shell'`,
    );
    await issueNew();
    await t.app.ctx.db.execute(sql`UPDATE products SET updated_at = now() + interval '1 second' WHERE id = ${u.product.id}`);
    await issueNew();
    await t.app.ctx.db.execute(sql`UPDATE settings SET revision = revision + 1`);
    await issueNew();
    expect(new Set(ids).size).toBe(5);
  });

  it('finds nothing for serials no range holds or that are malformed', async () => {
    expect(await stored('NOPE-000001')).toBeNull();
    expect(await stored('not a serial!')).toBeNull();
  });
});
