/**
 * The product judges every test against its standard (src/shared/standards): a bench pass that the standard
 * rejects is held and shown as a disagreement, a unit missing a required test is held, editing the product
 * re-judges its records and supersedes its reports, and the report prints required beside measured.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getSettings, updateSettings } from '../src/server/modules/settings/settings.service';
import { issueReport } from '../src/server/modules/reports/issue';
import { buildTestApp, type TestApp } from './helpers/app';
import { postBatch, record } from './helpers/machine-data';
import { poppler, tmpFile, unitWithRecords } from './helpers/reports';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** API 598 gate valve DN 100, metal seat, WCB rated 1.96 MPa: shell ≥ 2.94 MPa 60 s, backseat ≥ 2.156 MPa. */
const API598_GATE = {
  testStandard: 'api-598',
  valveType: 'gate',
  nominalSize: 100,
  seatType: 'metal',
  pressureClass: 'CL150',
  pressureWcb: 1.96,
  pressureFc: '',
};
const NO_SAMPLES = { samples: [] };
const conforming = [
  { testType: 'shell', testPressure: 2.94, holdingSeconds: 60, ...NO_SAMPLES },
  { testType: 'backseat', testPressure: 2.2, holdingSeconds: 60, ...NO_SAMPLES },
  { testType: 'air-seat', medium: 'air', testPressure: 0.6, holdingSeconds: 60, ...NO_SAMPLES },
];

async function recordsOf(serial: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/v1/machine-data?serial=${serial}&pageSize=100`,
    headers: { cookie: await staff() },
  });
  expect(res.statusCode).toBe(200);
  return res.json().data.items as Array<{
    id: string;
    testType: string;
    result: string;
    assessment: {
      verdict: string;
      reasons: string[];
      disagreement: boolean;
      requirement: {
        pressureMin: number | null;
        holdMin: number;
        leakageKind: string;
        leakageMax: number | null;
        standardName: string;
      } | null;
    };
  }>;
}
let cookie: string | null = null;
async function staff(): Promise<string> {
  if (!cookie) cookie = (await unitWithRecords(t, [])).admin;
  return cookie;
}

describe('judgement of records', () => {
  it('holds a bench pass of a backseat test leaking 10 drops/min, shows it as a disagreement and filters it', async () => {
    const u = await unitWithRecords(
      t,
      [...conforming.slice(0, 1), { ...conforming[1], leakageValue: 10, leakageUnit: 'drops/min' }, conforming[2]!],
      API598_GATE,
      { bodyMaterial: 'wcb' },
    );
    const items = await recordsOf(u.serial);
    const backseat = items.find((r) => r.testType === 'backseat')!;
    expect(backseat.result).toBe('pass');
    expect(backseat.assessment).toMatchObject({ verdict: 'nonconforming', reasons: ['leakage-high'], disagreement: true });
    expect(backseat.assessment.requirement).toMatchObject({
      standardName: 'API 598',
      pressureMin: 2.156,
      holdMin: 60,
      leakageKind: 'none',
    });
    const shell = items.find((r) => r.testType === 'shell')!;
    expect(shell.assessment).toMatchObject({ verdict: 'conforms', reasons: [], disagreement: false });
    expect(shell.assessment.requirement).toMatchObject({ pressureMin: 2.94, holdMin: 60, leakageKind: 'none' });

    const held = await issueReport(t.app.ctx.db, { serial: u.serial, language: 'en', publicBaseUrl: t.app.ctx.config.publicBaseUrl });
    expect(held).toMatchObject({
      status: 'held',
      held: [{ testType: 'backseat', kind: 'failed', bench: 'pass', reasons: ['leakage-high'] }],
    });

    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/machine-data?verdict=disagreement&serial=${u.serial}`,
      headers: { cookie: u.admin },
    });
    expect(res.json().data.items.map((r: { testType: string }) => r.testType)).toEqual(['backseat']);
  });

  it('judges pressure below the required, a hold shorter than the minimum (stated or from samples), and an incomparable leakage unit', async () => {
    const u = await unitWithRecords(
      t,
      [
        { testType: 'shell', testPressure: 2.5, holdingSeconds: 60, ...NO_SAMPLES },
        { testType: 'backseat', testPressure: 2.2, holdingSeconds: 30, ...NO_SAMPLES },
        // states 60 s, but the samples stay at pressure for about 20 s only
        {
          testType: 'air-seat',
          medium: 'air',
          testPressure: 0.6,
          holdingSeconds: 60,
          samples: [
            { t: 0, p: 0 },
            { t: 2, p: 0.6 },
            { t: 22, p: 0.6 },
            { t: 23, p: 0.1 },
            { t: 60, p: 0.1 },
          ],
        },
        { testType: 'seat', testPressure: 2.2, holdingSeconds: 60, leakageValue: 1, leakageUnit: 'ml/min', ...NO_SAMPLES },
      ],
      API598_GATE,
      { bodyMaterial: 'wcb' },
    );
    const by = Object.fromEntries((await recordsOf(u.serial)).map((r) => [r.testType, r.assessment]));
    expect(by.shell).toMatchObject({ verdict: 'nonconforming', reasons: ['pressure-low'] });
    expect(by.backseat).toMatchObject({ verdict: 'nonconforming', reasons: ['hold-short'] });
    expect(by['air-seat']).toMatchObject({ verdict: 'nonconforming', reasons: ['hold-short'] });
    // API 598 metal seat, DN 100: a count of drops per minute is allowed; a volume cannot be compared with it.
    expect(by.seat).toMatchObject({ verdict: 'nonconforming', reasons: ['leakage-unit'] });
  });

  it('leaves records of a product without a standard not assessed, and the bench decides the gate as before', async () => {
    const u = await unitWithRecords(t, [
      { testType: 'backseat', testPressure: 1, holdingSeconds: 1, leakageValue: 10, leakageUnit: 'drops/min', ...NO_SAMPLES },
    ]);
    const [r] = await recordsOf(u.serial);
    expect(r!.assessment).toMatchObject({ verdict: 'not-assessed', requirement: null, disagreement: false });
    expect(
      (await issueReport(t.app.ctx.db, { serial: u.serial, language: 'en', publicBaseUrl: t.app.ctx.config.publicBaseUrl })).status,
    ).toBe('issued');
  });

  it('holds a unit that lacks a test its standard requires', async () => {
    const u = await unitWithRecords(t, conforming.slice(0, 2), API598_GATE, { bodyMaterial: 'wcb' });
    expect(
      await issueReport(t.app.ctx.db, { serial: u.serial, language: 'en', publicBaseUrl: t.app.ctx.config.publicBaseUrl }),
    ).toMatchObject({
      status: 'held',
      held: [{ testType: 'air-seat', kind: 'missing' }],
    });
    await postBatch(t.app, u.bench.key, { records: [record({ serial: u.serial, ...conforming[2] })] });
    expect(
      (await issueReport(t.app.ctx.db, { serial: u.serial, language: 'en', publicBaseUrl: t.app.ctx.config.publicBaseUrl })).status,
    ).toBe('issued');
  });
});

describe('re-judgement and report versions', () => {
  it('re-judges the records when the product changes, and the next request supersedes the earlier report', async () => {
    const u = await unitWithRecords(t, conforming, API598_GATE, { bodyMaterial: 'wcb' });
    const first = await issueReport(t.app.ctx.db, { serial: u.serial, language: 'en', publicBaseUrl: t.app.ctx.config.publicBaseUrl });
    expect(first.status).toBe('issued');
    if (first.status !== 'issued') return;
    // A higher rating: the shell test at 2.94 MPa no longer reaches 1.5 × 2.5 = 3.75 MPa.
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/products/${u.product.id}`,
      headers: { cookie: u.admin },
      payload: { ...(await productOf(u.product.id)), pressureWcb: 2.5 },
    });
    expect(res.statusCode).toBe(200);
    const shell = (await recordsOf(u.serial)).find((r) => r.testType === 'shell')!;
    expect(shell.assessment).toMatchObject({ verdict: 'nonconforming', reasons: ['pressure-low'] });
    expect(
      await issueReport(t.app.ctx.db, { serial: u.serial, language: 'en', publicBaseUrl: t.app.ctx.config.publicBaseUrl }),
    ).toMatchObject({ status: 'held' });

    // Back to the rating the tests meet: conforming again, and a new report that supersedes the first.
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/products/${u.product.id}`,
      headers: { cookie: u.admin },
      payload: { ...(await productOf(u.product.id)), pressureWcb: 1.96, pressureClass: 'CL 150' },
    });
    const second = await issueReport(t.app.ctx.db, { serial: u.serial, language: 'en', publicBaseUrl: t.app.ctx.config.publicBaseUrl });
    expect(second.status).toBe('issued');
    if (second.status !== 'issued') return;
    expect(second.report.id).not.toBe(first.report.id);
    const v = await t.app.inject({ method: 'GET', url: `/api/v1/public/reports/${first.report.id}` });
    expect(v.json().data.supersededBy).toMatchObject({ id: second.report.id, number: second.report.number });
    const v2 = await t.app.inject({ method: 'GET', url: `/api/v1/public/reports/${second.report.id}` });
    expect(v2.json().data.supersededBy).toBeNull();
  });

  it('issues the first report after a start once: the certificate made on first use does not make a second', async () => {
    const fresh = await buildTestApp();
    try {
      const u = await unitWithRecords(fresh, conforming, API598_GATE, { bodyMaterial: 'wcb' });
      const a = await issueReport(fresh.app.ctx.db, {
        serial: u.serial,
        language: 'en',
        publicBaseUrl: fresh.app.ctx.config.publicBaseUrl,
      });
      const b = await issueReport(fresh.app.ctx.db, {
        serial: u.serial,
        language: 'en',
        publicBaseUrl: fresh.app.ctx.config.publicBaseUrl,
      });
      expect(a.status === 'issued' && b.status === 'issued' && b.report.id === a.report.id && b.report.reused).toBe(true);
    } finally {
      await fresh.close();
    }
  });

  it('re-judges when a range changes its body material', async () => {
    const u = await unitWithRecords(t, conforming, { ...API598_GATE, pressureSus: 4 }, { bodyMaterial: 'wcb' });
    const [range] = (
      await t.app.inject({ method: 'GET', url: `/api/v1/serial-ranges?serial=${u.serial}`, headers: { cookie: u.admin } })
    ).json().data.items;
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/serial-ranges/${range.id}`,
      headers: { cookie: u.admin },
      payload: {
        productId: range.productId,
        startSerial: range.startSerial,
        endSerial: range.endSerial,
        totalUnits: range.totalUnits,
        productionDate: range.productionDate,
        bodyMaterial: 'sus',
      },
    });
    expect(res.statusCode).toBe(200);
    const shell = (await recordsOf(u.serial)).find((r) => r.testType === 'shell')!;
    // SUS rated 4 MPa: the shell test must reach 6 MPa.
    expect(shell.assessment).toMatchObject({ verdict: 'nonconforming', reasons: ['pressure-low'] });
    expect(shell.assessment.requirement).toMatchObject({ pressureMin: 6 });
  });

  it('counts a bench pass that the standard rejects as a failed first attempt on the dashboard', async () => {
    const u = await unitWithRecords(t, [{ ...conforming[0], testPressure: 2 }], API598_GATE, { bodyMaterial: 'wcb' });
    const rows = await t.app.ctx.db.execute(sql`select failed_types from test_units where serial = ${u.serial}`);
    expect((rows as unknown as { rows: Array<{ failed_types: number }> }).rows[0]!.failed_types).toBe(1);
  });
});

describe('the report states the requirement', () => {
  it('prints required beside measured, names the standard, and embeds the requirement in test-report.json', async () => {
    const u = await unitWithRecords(t, conforming, API598_GATE, { bodyMaterial: 'wcb' });
    // The authorised person is named on a 2.2 report too.
    const {
      missing: _m,
      logo: _l,
      certificate: _c,
      termsVersion: _t,
      updatedAt: _u,
      searchRetentionDays: _s,
      ...texts
    } = await getSettings(t.app.ctx.db);
    await updateSettings(t.app.ctx.db, { id: null, label: 'test' }, { ...texts, inspectorName: 'Lin Mei-Hua' });
    for (const language of ['en', 'zh'] as const) {
      const r = await issueReport(t.app.ctx.db, { serial: u.serial, language, publicBaseUrl: t.app.ctx.config.publicBaseUrl });
      expect(r.status).toBe('issued');
      if (r.status !== 'issued') return;
      const file = tmpFile(r.report.bytes);
      const text = poppler('pdftotext', ['-layout', file, '-']).replace(/\s+/g, ' ');
      // The standard with its edition, joined as the report's language writes it (a full-width comma in zh).
      expect(text).toContain(language === 'en' ? 'API 598, 10th edition, 2016' : 'API 598，2016 年第 10 版');
      expect(text).toContain(language === 'en' ? '2.94 MPa (required ≥ 2.94 MPa)' : '2.94 MPa（要求 ≥ 2.94 MPa）');
      expect(text).toContain(language === 'en' ? 'no visible leakage' : '無可見洩漏');
      expect(text).toContain(language === 'en' ? 'Conforms' : '符合');
      expect(text).toContain(
        language === 'en' ? "Released by the manufacturer's authorised person: Lin Mei-Hua" : '製造商授權人員放行：Lin Mei-Hua',
      );
      const dir = tmpFile(Buffer.alloc(0), 'x').replace(/x$/, '');
      poppler('pdfdetach', ['-saveall', '-o', dir, file]);
      const json = JSON.parse((await import('node:fs')).readFileSync(`${dir}/test-report.json`, 'utf8'));
      expect(json.B02_testStandard).toMatchObject({ id: 'api-598', name: 'API 598' });
      const shell = json.D02_pressureTests.find((x: { testType: string }) => x.testType === 'shell');
      expect(shell).toMatchObject({
        verdict: 'conforms',
        requirement: { testPressureMPa: { min: 2.94 }, minHoldingSeconds: 60, allowedLeakage: { none: true } },
      });
    }
  });
});

describe('measured leakage units', () => {
  it('are named in the report language when the app names them, and printed as the bench wrote them otherwise', async () => {
    // A product without a standard: the bench's verdict stands and the report is issued whatever leaked.
    const u = await unitWithRecords(t, [
      { testType: 'seat', testPressure: 2.2, holdingSeconds: 60, leakageValue: 3, leakageUnit: 'Drops per min', ...NO_SAMPLES },
      {
        testType: 'air-seat',
        medium: 'air',
        testPressure: 0.6,
        holdingSeconds: 60,
        leakageValue: 1.5,
        leakageUnit: 'ml/min',
        ...NO_SAMPLES,
      },
    ]);
    for (const language of ['en', 'zh'] as const) {
      const r = await issueReport(t.app.ctx.db, { serial: u.serial, language, publicBaseUrl: t.app.ctx.config.publicBaseUrl });
      expect(r.status).toBe('issued');
      if (r.status !== 'issued') return;
      const text = poppler('pdftotext', ['-layout', tmpFile(r.report.bytes), '-']).replace(/\s+/g, ' ');
      expect(text).toContain(language === 'en' ? '3 drops/min' : '3 滴/分');
      expect(text).not.toContain('Drops per min');
      expect(text).toContain('1.5 ml/min');
    }
  });
});

async function productOf(id: string) {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/products/${id}`, headers: { cookie: await staff() } });
  const { id: _i, rangeCount: _r, createdAt: _c, updatedAt: _u, ...rest } = res.json().data;
  return rest;
}
