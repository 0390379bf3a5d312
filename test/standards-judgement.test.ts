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
import { API598_GATE, poppler, tmpFile, unitWithRecords } from './helpers/reports';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

const NO_SAMPLES = { samples: [] };
const conforming = [
  { testType: 'shell', testPressure: 3.0, holdingSeconds: 60, ...NO_SAMPLES },
  { testType: 'backseat', testPressure: 2.2, holdingSeconds: 60, ...NO_SAMPLES },
  {
    testType: 'air-seat',
    medium: 'air',
    testPressure: 0.6,
    holdingSeconds: 60,
    leakageValue: 0,
    leakageUnit: 'bubbles/min',
    ...NO_SAMPLES,
  },
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
      pressureMin: 2.2,
      holdMin: 60,
      leakageKind: 'none',
    });
    const shell = items.find((r) => r.testType === 'shell')!;
    expect(shell.assessment).toMatchObject({ verdict: 'conforms', reasons: [], disagreement: false });
    // 1.5 × 1.96 MPa = 2.94 MPa, rounded up to the next 1 bar (ASME B16.34): 3.0 MPa.
    expect(shell.assessment.requirement).toMatchObject({
      pressureMin: 3,
      pressureBasis: { factor: 1.5, rated: 1.96, exact: 2.94, roundedBy: 'asme-b16.34' },
      holdMin: 60,
      leakageKind: 'none',
    });

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
          leakageValue: 2,
          leakageUnit: 'bubbles/min',
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
    expect(by['air-seat']).toMatchObject({ verdict: 'nonconforming', reasons: ['hold-short', 'samples-hold-short'] });
    // API 598 metal seat, DN 100: a count of drops per minute is allowed; a volume cannot be compared with it.
    expect(by.seat).toMatchObject({ verdict: 'nonconforming', reasons: ['leakage-unit'] });
  });

  it('holds a count-limited test whose record states no leakage, and takes the bench at its word where none may be seen', async () => {
    const u = await unitWithRecords(
      t,
      [
        conforming[0]!,
        conforming[1]!,
        // API 598 metal seat, NPS 4: up to 16 bubbles/min. No value stated: not the same as none seen.
        { testType: 'air-seat', medium: 'air', testPressure: 0.6, holdingSeconds: 60, ...NO_SAMPLES },
      ],
      API598_GATE,
      { bodyMaterial: 'wcb' },
    );
    const by = Object.fromEntries((await recordsOf(u.serial)).map((r) => [r.testType, r.assessment]));
    expect(by['air-seat']).toMatchObject({ verdict: 'nonconforming', reasons: ['leakage-not-recorded'], disagreement: true });
    // The shell and backseat tests allow no visible leakage: the bench's pass is the observation.
    expect(by.shell).toMatchObject({ verdict: 'conforms', reasons: [] });
    expect(by.backseat).toMatchObject({ verdict: 'conforms', reasons: [] });
    expect(
      await issueReport(t.app.ctx.db, { serial: u.serial, language: 'en', publicBaseUrl: t.app.ctx.config.publicBaseUrl }),
    ).toMatchObject({
      status: 'held',
      held: [{ testType: 'air-seat', kind: 'failed', reasons: ['leakage-not-recorded'] }],
    });
    // Stated as 0 bubbles/min, the retest conforms.
    await postBatch(t.app, u.bench.key, { records: [record({ serial: u.serial, ...conforming[2], testedAt: new Date().toISOString() })] });
    expect(
      (await issueReport(t.app.ctx.db, { serial: u.serial, language: 'en', publicBaseUrl: t.app.ctx.config.publicBaseUrl })).status,
    ).toBe('issued');
  });

  it('takes a metal seat of NPS 2 and below, where the table allows 0, as no visible leakage', async () => {
    const u = await unitWithRecords(
      t,
      [{ testType: 'air-seat', medium: 'air', testPressure: 0.6, holdingSeconds: 15, ...NO_SAMPLES }],
      { ...API598_GATE, nominalSize: 50 },
      { bodyMaterial: 'wcb' },
    );
    const [r] = await recordsOf(u.serial);
    expect(r!.assessment).toMatchObject({ verdict: 'conforms', reasons: [], requirement: { leakageKind: 'none' } });
  });

  it('allows a metal-seated NPS 1 check valve the table’s 6 cm³/min and 0.08 m³/h, and no more', async () => {
    const u = await unitWithRecords(
      t,
      [
        { testType: 'seat', testPressure: 2.2, holdingSeconds: 60, leakageValue: 5, leakageUnit: 'cm3/min', ...NO_SAMPLES },
        {
          testType: 'air-seat',
          medium: 'air',
          testPressure: 0.6,
          holdingSeconds: 60,
          leakageValue: 0.09,
          leakageUnit: 'm3/h',
          ...NO_SAMPLES,
        },
      ],
      { ...API598_GATE, valveType: 'check', nominalSize: 25 },
      { bodyMaterial: 'wcb' },
    );
    const by = Object.fromEntries((await recordsOf(u.serial)).map((r) => [r.testType, r.assessment]));
    expect(by.seat).toMatchObject({ verdict: 'conforms', requirement: { leakageKind: 'mm3/s', leakageMax: 100 } });
    expect(by['air-seat']).toMatchObject({ verdict: 'nonconforming', reasons: ['leakage-high'], requirement: { leakageMax: 22222.222 } });
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

describe('Table 1: the class column and the seat', () => {
  it('holds a Class 2500 gate valve without the high-pressure closure test, which the usual column leaves optional', async () => {
    const u = await unitWithRecords(
      t,
      [
        { testType: 'shell', testPressure: 40, holdingSeconds: 60, ...NO_SAMPLES },
        { testType: 'backseat', testPressure: 30, holdingSeconds: 60, ...NO_SAMPLES },
        conforming[2]!,
      ],
      { ...API598_GATE, pressureClass: 'CL2500', pressureWcb: 25.86 },
      { bodyMaterial: 'wcb' },
    );
    const issue = () => issueReport(t.app.ctx.db, { serial: u.serial, language: 'en', publicBaseUrl: t.app.ctx.config.publicBaseUrl });
    expect(await issue()).toMatchObject({ status: 'held', held: [{ testType: 'seat', kind: 'missing' }] });
    await postBatch(t.app, u.bench.key, {
      records: [
        record({
          serial: u.serial,
          testType: 'seat',
          testPressure: 28.5,
          holdingSeconds: 60,
          leakageValue: 0,
          leakageUnit: 'drops/min',
          ...NO_SAMPLES,
        }),
      ],
    });
    expect((await issue()).status).toBe('issued');
  });

  it('requires the hydrostatic closure test of a resilient-seated butterfly valve, the low-pressure one of a metal-seated one', async () => {
    const soft = await unitWithRecords(
      t,
      [conforming[0]!, { testType: 'air-seat', medium: 'air', testPressure: 0.6, holdingSeconds: 60, ...NO_SAMPLES }],
      { ...API598_GATE, valveType: 'butterfly', seatType: 'soft' },
      { bodyMaterial: 'wcb' },
    );
    const issue = (u: { serial: string }) =>
      issueReport(t.app.ctx.db, { serial: u.serial, language: 'en', publicBaseUrl: t.app.ctx.config.publicBaseUrl });
    expect(await issue(soft)).toMatchObject({ status: 'held', held: [{ testType: 'seat', kind: 'missing' }] });
    const metal = await unitWithRecords(
      t,
      [conforming[0]!, conforming[2]!],
      { ...API598_GATE, valveType: 'butterfly', seatType: 'metal' },
      { bodyMaterial: 'wcb' },
    );
    expect((await issue(metal)).status).toBe('issued');
  });
});

describe('ISO 5208 rates AA, CC and EE', () => {
  it('judge a product at rate CC, and EN 12266-1, which has no CC, refuses it with a field error', async () => {
    const u = await unitWithRecords(
      t,
      [{ testType: 'seat', testPressure: 2.2, holdingSeconds: 60, leakageValue: 9, leakageUnit: 'mm3/s', ...NO_SAMPLES }],
      { ...API598_GATE, testStandard: 'iso-5208', leakageRate: 'CC' },
      { bodyMaterial: 'wcb' },
    );
    // 0.08 × DN 100 = 8 mm³/s: 9 is too much.
    const [r] = await recordsOf(u.serial);
    expect(r!.assessment).toMatchObject({ verdict: 'nonconforming', reasons: ['leakage-high'], requirement: { leakageMax: 8 } });
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/products/${u.product.id}`,
      headers: { cookie: u.admin },
      payload: { ...(await productOf(u.product.id)), testStandard: 'en-12266-1' },
    });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain('leakageRate');
  });
});

describe('API 6D and ASME B16.34', () => {
  const issue = (u: { serial: string }) =>
    issueReport(t.app.ctx.db, { serial: u.serial, language: 'en', publicBaseUrl: t.app.ctx.config.publicBaseUrl });

  it('API 6D: a metal-seated gate valve with no rate named is judged at ISO 5208 rate D, and needs its hydrostatic seat test', async () => {
    const u = await unitWithRecords(
      t,
      [
        { ...conforming[0]!, holdingSeconds: 120 },
        { testType: 'backseat', testPressure: 2.2, holdingSeconds: 120, ...NO_SAMPLES },
        { testType: 'seat', testPressure: 2.2, holdingSeconds: 120, leakageValue: 12, leakageUnit: 'mm3/s', ...NO_SAMPLES },
      ],
      { ...API598_GATE, testStandard: 'api-6d' },
      { bodyMaterial: 'wcb' },
    );
    const by = Object.fromEntries((await recordsOf(u.serial)).map((r) => [r.testType, r.assessment]));
    // 0.1 × DN 100 = 10 mm³/s
    expect(by.seat).toMatchObject({
      verdict: 'nonconforming',
      reasons: ['leakage-high'],
      requirement: { standardName: 'API 6D', leakageMax: 10 },
    });
    expect(by.shell).toMatchObject({ verdict: 'conforms', requirement: { pressureMin: 3, holdMin: 120, holdUnconfirmed: true } });
  });

  it('ASME B16.34: the gas closure test stands in for the liquid one at NPS 4, not at NPS 10 Class 150', async () => {
    const records = [
      { ...conforming[0]!, holdingSeconds: 180, testPressure: 3.5 },
      { testType: 'air-seat', medium: 'air', testPressure: 0.6, holdingSeconds: 60, leakageValue: 0, leakageUnit: 'mm3/s', ...NO_SAMPLES },
    ];
    const small = await unitWithRecords(t, records, { ...API598_GATE, testStandard: 'asme-b16.34' }, { bodyMaterial: 'wcb' });
    expect((await issue(small)).status).toBe('issued');
    const large = await unitWithRecords(
      t,
      records,
      { ...API598_GATE, testStandard: 'asme-b16.34', nominalSize: 250 },
      { bodyMaterial: 'wcb' },
    );
    expect(await issue(large)).toMatchObject({ status: 'held', held: [{ testType: 'seat', kind: 'missing' }] });
  });
});

describe('editions', () => {
  it('judges each test by the edition in force on its day, names it, and re-judges when the product names an edition', async () => {
    // 20 bubbles/min at NPS 4: within the 8th edition's 24 (2004–2009), above the 10th's 16 (from October 2016).
    const air = (testedAt: string) => ({
      testType: 'air-seat',
      medium: 'air',
      testPressure: 0.6,
      holdingSeconds: 60,
      leakageValue: 20,
      leakageUnit: 'bubbles/min',
      testedAt,
      ...NO_SAMPLES,
    });
    const u = await unitWithRecords(t, [air('2008-06-02T08:00:00Z'), air('2020-06-02T08:00:00Z')], API598_GATE, {
      bodyMaterial: 'wcb',
      productionDate: '2004-01-01',
    });
    const byYear = async () =>
      Object.fromEntries(
        ((await recordsOf(u.serial)) as unknown as Array<{ testedAt: string; assessment: { verdict: string; requirement: unknown } }>).map(
          (r) => [r.testedAt.slice(0, 4), r.assessment],
        ),
      );
    let by = await byYear();
    expect(by['2008']).toMatchObject({
      verdict: 'conforms',
      requirement: { edition: '8th edition, 2004', editionKey: '8', leakageMax: 24 },
    });
    expect(by['2020']).toMatchObject({ verdict: 'nonconforming', requirement: { editionKey: '10', leakageMax: 16 } });

    // Named: the 10th edition judges every test, the 2008 one too.
    const put = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'PUT', url: `/api/v1/products/${u.product.id}`, headers: { cookie: u.admin }, payload });
    expect((await put({ ...(await productOf(u.product.id)), testEdition: '10' })).statusCode).toBe(200);
    by = await byYear();
    expect(by['2008']).toMatchObject({ verdict: 'nonconforming', requirement: { editionKey: '10', leakageMax: 16 } });
    // A replace that does not carry the edition (the product form) keeps it; an edition the standard lacks is refused.
    const { testEdition: _e, ...withoutEdition } = await productOf(u.product.id);
    expect((await put({ ...withoutEdition, pressureClass: 'CL150' })).json().data.testEdition).toBe('10');
    const bad = await put({ ...withoutEdition, testEdition: '7' });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('testEdition');
  });
});

describe('re-judgement and report versions', () => {
  it('re-judges the records when the product changes, and the next request supersedes the earlier report', async () => {
    const u = await unitWithRecords(t, conforming, API598_GATE, { bodyMaterial: 'wcb' });
    const first = await issueReport(t.app.ctx.db, { serial: u.serial, language: 'en', publicBaseUrl: t.app.ctx.config.publicBaseUrl });
    expect(first.status).toBe('issued');
    if (first.status !== 'issued') return;
    // A higher rating: the shell test at 3.0 MPa no longer reaches 1.5 × 2.5 = 3.75 MPa (3.8 MPa rounded up).
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
      expect(text).toContain(language === 'en' ? '3 MPa (required ≥ 3 MPa)' : '3 MPa（要求 ≥ 3 MPa）');
      // How the required pressure follows from the rating (the phrase may wrap in the PDF, so spaces are ignored).
      expect(text.replace(/\s/g, '')).toContain(
        (language === 'en'
          ? '1.5 × 1.96 MPa = 2.94 MPa, rounded up to 3 MPa (ASME B16.34)'
          : '1.5 × 1.96 MPa = 2.94 MPa，無條件進位至 3 MPa（ASME B16.34）'
        ).replace(/\s/g, ''),
      );
      expect(text).toContain(language === 'en' ? 'no visible leakage' : '無可見洩漏');
      expect(text).toContain(language === 'en' ? 'Conforms' : '符合');
      expect(text).toContain(
        language === 'en' ? "Released by the manufacturer's authorised person: Lin Mei-Hua" : '製造商授權人員放行：Lin Mei-Hua',
      );
      const dir = tmpFile(Buffer.alloc(0), 'x').replace(/x$/, '');
      poppler('pdfdetach', ['-saveall', '-o', dir, file]);
      const json = JSON.parse((await import('node:fs')).readFileSync(`${dir}/test-report.json`, 'utf8'));
      expect(json.B03_supplementaryRequirements.testStandard).toMatchObject({ id: 'api-598', name: 'API 598' });
      const shell = json.D51_pressureTests.find((x: { testType: string }) => x.testType === 'shell');
      expect(shell).toMatchObject({
        verdict: 'conforms',
        requirement: {
          testPressureMPa: { min: 3, basis: { factor: 1.5, ratedMPa: 1.96, exactMPa: 2.94, roundedUpBy: 'ASME B16.34' } },
          minHoldingSeconds: 60,
          allowedLeakage: { none: true },
        },
      });
    }
  });
});

describe('a duration no source confirms', () => {
  it('is printed on the certificate as not confirmed, and its JSON says so', async () => {
    const u = await unitWithRecords(
      t,
      [
        { testType: 'shell', testPressure: 2.4, holdingSeconds: 60, ...NO_SAMPLES },
        { testType: 'seat', testPressure: 1.8, holdingSeconds: 60, leakageValue: 0, leakageUnit: 'mm3/s', ...NO_SAMPLES },
      ],
      { ...API598_GATE, testStandard: 'en-12266-1', leakageRate: 'A', pressureWcb: 1.6 },
      { bodyMaterial: 'wcb' },
    );
    const by = Object.fromEntries((await recordsOf(u.serial)).map((r) => [r.testType, r.assessment]));
    expect(by.seat!.requirement).toMatchObject({ holdMin: 60, holdUnconfirmed: true });
    expect(by.shell!.requirement).toMatchObject({ holdMin: 60, holdUnconfirmed: false });
    for (const language of ['en', 'zh'] as const) {
      const r = await issueReport(t.app.ctx.db, { serial: u.serial, language, publicBaseUrl: t.app.ctx.config.publicBaseUrl });
      expect(r.status).toBe('issued');
      if (r.status !== 'issued') return;
      const file = tmpFile(r.report.bytes);
      // In the order it is written: a table cell's wrapped lines stay together whatever stands beside them.
      const text = poppler('pdftotext', ['-raw', file, '-']).replace(/\s/g, '');
      // A certificate without charts marks the figure and says under its table what the mark means.
      expect(text).toContain((language === 'en' ? '60 s (required ≥ 60 s *)' : '60 秒（要求 ≥ 60 秒 *）').replace(/\s/g, ''));
      expect(text).toContain(
        (language === 'en' ? "* A figure not confirmed against the standard's text." : '* 此數值未經標準原文證實。').replace(/\s/g, ''),
      );
      const dir = tmpFile(Buffer.alloc(0), 'x').replace(/x$/, '');
      poppler('pdfdetach', ['-saveall', '-o', dir, file]);
      const json = JSON.parse((await import('node:fs')).readFileSync(`${dir}/test-report.json`, 'utf8'));
      const seat = json.D51_pressureTests.find((x: { testType: string }) => x.testType === 'seat');
      const shell = json.D51_pressureTests.find((x: { testType: string }) => x.testType === 'shell');
      expect(seat.requirement).toMatchObject({ minHoldingSeconds: 60, minHoldingSecondsConfirmed: false });
      expect(shell.requirement).toMatchObject({ minHoldingSeconds: 60, minHoldingSecondsConfirmed: true });
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
