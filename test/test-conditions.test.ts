/**
 * A record's test conditions: the test fluid's temperature (°C) and the side pressurised. Taken from the bench
 * API and the CSV import, refused with field errors when out of range, given back by the list, the record and
 * the export, printed on the certificate's test line in both languages and carried in its embedded JSON. A
 * record that states none hashes as before, so a bench resending an old record is still a duplicate.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueReport } from '../src/server/modules/reports/issue';
import { recordContentHash } from '../src/server/modules/machine-data/record-codec';
import { testRecordInput } from '../src/shared/contract/machine-data';
import { buildTestApp, type TestApp } from './helpers/app';
import { staffCookie, upload } from './helpers/catalogue';
import { postBatch, problemsOf, record } from './helpers/machine-data';
import { API598_GATE, poppler, tmpFile, unitWithRecords } from './helpers/reports';

let t: TestApp;
let staff: string;
beforeAll(async () => {
  t = await buildTestApp();
  staff = await staffCookie(t);
});
afterAll(() => t.close());

async function listed(serial: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/v1/machine-data?serial=${serial}&sort=testedAt&order=asc`,
    headers: { cookie: staff },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.items as { id: string; recordId: string; fluidTemperature: number | null; side: string | null }[];
}

async function assessed(serial: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/v1/machine-data?serial=${serial}&sort=testedAt&order=asc`,
    headers: { cookie: staff },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.items as { testType: string; assessment: { verdict: string; reasons: string[] } }[];
}

describe('test conditions', () => {
  it('are taken from a bench, given back, exported, and refused out of range', async () => {
    const unit = await unitWithRecords(t, [
      { testType: 'shell', fluidTemperature: 21.5, side: 'both', testedAt: '2024-05-01T08:30:00.000Z' },
      { testType: 'seat', fluidTemperature: '18,0', side: 'A', testedAt: '2024-05-01T08:40:00.000Z' },
      { testType: 'backseat', testedAt: '2024-05-01T08:50:00.000Z' },
    ]);
    const items = await listed(unit.serial);
    expect(items.map((x) => [x.fluidTemperature, x.side])).toEqual([
      [21.5, 'both'],
      [18, 'A'],
      [null, null],
    ]);
    const one = await t.app.inject({ method: 'GET', url: `/api/v1/machine-data/${items[0]!.id}`, headers: { cookie: staff } });
    expect(one.json().data).toMatchObject({ fluidTemperature: 21.5, side: 'both' });

    const csv = await t.app.inject({
      method: 'GET',
      url: `/api/v1/machine-data/export.csv?serial=${unit.serial}&sort=testedAt&order=asc`,
      headers: { cookie: staff },
    });
    expect(csv.statusCode).toBe(200);
    const [header, first, , third] = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    const cols = header!.split(',');
    const cell = (line: string, name: string) => line.split(',')[cols.indexOf(name)];
    expect([cell(first!, 'fluidTemperature'), cell(first!, 'side')]).toEqual(['21.5', 'both']);
    expect([cell(third!, 'fluidTemperature'), cell(third!, 'side')]).toEqual(['', '']);

    const refused = await postBatch(t.app, unit.bench.key, {
      records: [
        record({ serial: unit.serial, fluidTemperature: 250 }),
        record({ serial: unit.serial, fluidTemperature: 20.25 }),
        record({ serial: unit.serial, side: 'inlet' }),
      ],
    });
    expect(refused.statusCode).toBe(400);
    expect(problemsOf(refused)).toEqual([
      '0:fluidTemperature:validation.max',
      '1:fluidTemperature:products.validation.decimals1',
      '2:side:machineData.validation.side',
    ]);
  });

  it('are read from the CSV import', async () => {
    const unit = await unitWithRecords(t, []);
    const bench = await t.app.inject({ method: 'GET', url: `/api/v1/machines?q=`, headers: { cookie: unit.admin } });
    const name = (bench.json().data.items as { id: string; name: string }[]).find((m) => m.id === unit.bench.id)!.name;
    const head = 'recordId,serial,testType,medium,testPressure,holdingSeconds,result,testedAt,operator,machine,fluidTemperature,side';
    const file = [
      head,
      `C1-${unit.serial},${unit.serial},shell,water,2.4,60,pass,2024-05-02T08:00:00.000Z,Lin,${name},23.5,both`,
      `C2-${unit.serial},${unit.serial},seat,water,2.4,60,pass,2024-05-02T08:10:00.000Z,Lin,${name},-2.5,B`,
      `C3-${unit.serial},${unit.serial},backseat,water,2.4,60,pass,2024-05-02T08:20:00.000Z,Lin,${name},,`,
    ].join('\r\n');
    const res = await upload(t.app, unit.admin, '/api/v1/machine-data/import', file);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ stored: 3 });
    expect((await listed(unit.serial)).map((x) => [x.recordId.slice(0, 2), x.fluidTemperature, x.side])).toEqual([
      ['C1', 23.5, 'both'],
      ['C2', -2.5, 'B'],
      ['C3', null, null],
    ]);
  });

  it("judge the fluid's temperature where the standard sets a range, and only a temperature the record states", async () => {
    // API 598 (9th edition's table of test fluids, kept for every edition): 5 °C to 50 °C for the shell,
    // high-pressure backseat and high-pressure closure tests; none for the low-pressure gas closure test.
    const shell = { testType: 'shell', testPressure: 3.0, holdingSeconds: 60, samples: [] };
    const cases = [
      { fluidTemperature: 5, reasons: [] },
      { fluidTemperature: 50, reasons: [] },
      { fluidTemperature: 4.9, reasons: ['fluid-temperature-out-of-range'] },
      { fluidTemperature: 50.1, reasons: ['fluid-temperature-out-of-range'] },
      { fluidTemperature: null, reasons: [] },
    ];
    for (const c of cases) {
      const unit = await unitWithRecords(t, [{ ...shell, fluidTemperature: c.fluidTemperature }], API598_GATE, { bodyMaterial: 'wcb' });
      const [item] = await assessed(unit.serial);
      expect(item!.assessment.reasons, String(c.fluidTemperature)).toEqual(c.reasons);
      expect(item!.assessment.verdict).toBe(c.reasons.length ? 'nonconforming' : 'conforms');
    }
    const gas = await unitWithRecords(
      t,
      [
        {
          testType: 'air-seat',
          medium: 'air',
          testPressure: 0.6,
          holdingSeconds: 60,
          leakageValue: 0,
          leakageUnit: 'bubbles/min',
          samples: [],
          fluidTemperature: 60,
          testedAt: '2024-05-01T08:30:00.000Z',
        },
        {
          testType: 'backseat',
          testPressure: 2.2,
          holdingSeconds: 60,
          samples: [],
          fluidTemperature: 60,
          testedAt: '2024-05-01T08:40:00.000Z',
        },
      ],
      API598_GATE,
      { bodyMaterial: 'wcb' },
    );
    expect((await assessed(gas.serial)).map((x) => [x.testType, x.assessment.reasons])).toEqual([
      ['air-seat', []],
      ['backseat', ['fluid-temperature-out-of-range']],
    ]);
    // No citable figure for ISO 5208: a temperature it states is printed, not judged.
    const iso = await unitWithRecords(
      t,
      [{ ...shell, fluidTemperature: 60 }],
      { ...API598_GATE, testStandard: 'iso-5208', leakageRate: 'D' },
      {
        bodyMaterial: 'wcb',
      },
    );
    expect((await assessed(iso.serial))[0]!.assessment.reasons).toEqual([]);
    // The product moved to API 598: its stored record is judged again against the range.
    const got = await t.app.inject({ method: 'GET', url: `/api/v1/products/${iso.product.id}`, headers: { cookie: iso.admin } });
    const { id: _i, rangeCount: _r, createdAt: _c, updatedAt: _u, ...product } = got.json().data;
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/products/${iso.product.id}`,
      headers: { cookie: iso.admin },
      payload: { ...product, testStandard: 'api-598', leakageRate: null },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect((await assessed(iso.serial))[0]!.assessment).toMatchObject({
      verdict: 'nonconforming',
      reasons: ['fluid-temperature-out-of-range'],
    });
  });

  it('print on the test line and travel in the embedded JSON', async () => {
    const unit = await unitWithRecords(t, [
      { testType: 'shell', fluidTemperature: 21.5, side: 'both', testedAt: '2024-05-01T08:30:00.000Z' },
      { testType: 'seat', side: 'A', testedAt: '2024-05-01T08:40:00.000Z' },
      { testType: 'backseat', testedAt: '2024-05-01T08:50:00.000Z' },
    ]);
    const text = async (language: 'en' | 'zh') => {
      const issued = await issueReport(t.app.ctx.db, { serial: unit.serial, language, publicBaseUrl: t.app.ctx.config.publicBaseUrl });
      expect(issued.status).toBe('issued');
      if (issued.status !== 'issued') return { text: '', file: '' };
      const file = tmpFile(issued.report.bytes);
      return { text: poppler('pdftotext', ['-raw', file, '-']).replace(/\s+/g, ' '), file };
    };
    const en = await text('en');
    expect(en.text).toContain('Test conditions Fluid at 21.5 °C; both sides pressurised');
    expect(en.text).toContain('Test conditions Fluid temperature not stated; side A pressurised');
    expect(en.text.match(/Test conditions/g)).toHaveLength(2);
    poppler('pdfdetach', ['-saveall', '-o', path.dirname(en.file), en.file]);
    const json = JSON.parse(fs.readFileSync(path.join(path.dirname(en.file), 'test-report.json'), 'utf8'));
    expect(json.schemaVersion).toBe('2.4');
    expect(
      (json.D51_pressureTests as { testType: string; fluidTemperatureC: number | null; sidePressurised: string | null }[]).map((x) => [
        x.testType,
        x.fluidTemperatureC,
        x.sidePressurised,
      ]),
    ).toEqual([
      ['shell', 21.5, 'both'],
      ['seat', null, 'A'],
      ['backseat', null, null],
    ]);
    // Chinese lines wrap between any two characters: compared without spaces.
    const zh = (await text('zh')).text.replace(/\s+/g, '');
    expect(zh).toContain('試驗條件試驗流體21.5°C；兩側加壓');
    expect(zh).toContain('試驗條件未記載流體溫度；A側加壓');
  });

  it('leave the content hash of a record that states none as it was, and tell instrument and side apart', () => {
    const base = testRecordInput.parse(record({ samples: [] }));
    const stated = testRecordInput.parse({ ...record({ samples: [] }), recordId: base.recordId, side: 'A' });
    const { fluidTemperature: _f, side: _s, ...before } = base;
    expect(recordContentHash(base, null)).toEqual(recordContentHash(before, null));
    expect(recordContentHash(stated, null)).not.toEqual(recordContentHash(base, null));
    expect(recordContentHash({ ...base, instrumentId: 'A' }, null)).not.toEqual(recordContentHash(stated, null));
  });
});
