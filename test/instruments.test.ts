/**
 * A bench's instruments and their calibrations, and records judged against them where Settings require
 * calibrated instruments: each hold reason, a recalibration that does not clear an old record, a calibration
 * entered late that does, and switching the requirement off.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../src/server/db/schema/index';
import { settingsUpdateInput } from '../src/shared/contract/settings';
import { getSettings, updateSettings } from '../src/server/modules/settings/settings.service';
import { buildTestApp, type TestApp } from './helpers/app';
import { staffCookie } from './helpers/catalogue';
import { adminCookie, createBench, postBatch, record } from './helpers/machine-data';
import { poppler, tmpFile, unitWithRecords } from './helpers/reports';
import { issueReport } from '../src/server/modules/reports/issue';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await adminCookie(t);
});
afterAll(() => t.close());

const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, cookie = admin) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload !== undefined ? { payload: payload as object } : {}) });

const gauge = (overrides: Record<string, unknown> = {}) => ({
  instrumentId: 'PG-01',
  kind: 'gauge',
  rangeMax: 10,
  accuracy: 0.5,
  calibrationCertificate: 'CAL-2024-017',
  calibratedOn: '2024-01-10',
  dueOn: '2024-07-10',
  ...overrides,
});

async function requireCalibrated(on: boolean) {
  const before = await getSettings(t.app.ctx.db);
  await updateSettings(
    t.app.ctx.db,
    { id: null, label: 'test' },
    settingsUpdateInput.parse({ ...before, requireCalibratedInstruments: on }),
  );
}

/** A unit's serial of its own, so that each record is found alone. */
const serial = () => `IC${randomBytes(3).toString('hex').toUpperCase()}-000001`;

async function assessmentOf(s: string) {
  const res = await api('GET', `/api/v1/machine-data?serial=${s}`);
  expect(res.statusCode, res.body).toBe(200);
  const [item] = res.json().data.items as { instrumentId: string | null; assessment: { verdict: string; reasons: string[] } }[];
  return item!;
}

describe('instruments of a bench', () => {
  it('keeps an instrument with its calibrations, newest first, and audits each change', async () => {
    const bench = await createBench(t.app, admin);
    const created = await api('POST', `/api/v1/machines/${bench.id}/instruments`, gauge());
    expect(created.statusCode, created.body).toBe(201);
    const inst = created.json().data;
    expect(inst).toMatchObject({
      instrumentId: 'PG-01',
      kind: 'gauge',
      rangeMax: 10,
      accuracy: 0.5,
      calibratedOn: '2024-01-10',
      dueOn: '2024-07-10',
    });
    expect(inst.calibrations).toHaveLength(1);

    const edited = await api('PATCH', `/api/v1/machines/${bench.id}/instruments/${inst.id}`, {
      kind: 'transducer',
      rangeMax: 25,
      accuracy: 0.25,
    });
    expect(edited.json().data).toMatchObject({ kind: 'transducer', rangeMax: 25, accuracy: 0.25, calibratedOn: '2024-01-10' });

    const recal = await api('POST', `/api/v1/machines/${bench.id}/instruments/${inst.id}/calibrations`, {
      calibrationCertificate: 'CAL-2024-101',
      calibratedOn: '2024-07-08',
      dueOn: '2025-01-08',
    });
    expect(recal.statusCode, recal.body).toBe(201);
    expect(recal.json().data).toMatchObject({ calibrationCertificate: 'CAL-2024-101', calibratedOn: '2024-07-08', dueOn: '2025-01-08' });
    expect(recal.json().data.calibrations.map((c: { calibratedOn: string }) => c.calibratedOn)).toEqual(['2024-07-08', '2024-01-10']);

    const list = await api('GET', `/api/v1/machines/${bench.id}/instruments`);
    expect(list.json().data).toHaveLength(1);
    const audit = await t.app.ctx.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.entityId, inst.id));
    expect(audit.map((a) => a.action).sort()).toEqual(['calibrate', 'create', 'update']);
  });

  it('refuses a taken id, a due date before the calibration, control characters, bad numbers and strangers', async () => {
    const bench = await createBench(t.app, admin);
    expect((await api('POST', `/api/v1/machines/${bench.id}/instruments`, gauge())).statusCode).toBe(201);
    const taken = await api('POST', `/api/v1/machines/${bench.id}/instruments`, gauge());
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.fields).toEqual([expect.objectContaining({ field: 'instrumentId', key: 'machineData.instrumentIdTaken' })]);

    const early = await api('POST', `/api/v1/machines/${bench.id}/instruments`, gauge({ instrumentId: 'PG-02', dueOn: '2024-01-09' }));
    expect(early.statusCode).toBe(400);
    expect(early.json().error.fields).toEqual([
      expect.objectContaining({ field: 'dueOn', key: 'machineData.validation.dueBeforeCalibrated' }),
    ]);

    const control = await api('POST', `/api/v1/machines/${bench.id}/instruments`, gauge({ instrumentId: 'PG\u000703' }));
    expect(control.statusCode).toBe(400);
    expect(control.json().error.fields[0]).toMatchObject({ field: 'instrumentId' });

    const junk = await api(
      'POST',
      `/api/v1/machines/${bench.id}/instruments`,
      gauge({ instrumentId: 'PG-04', rangeMax: -1, accuracy: 'x', calibratedOn: '2024-02-30' }),
    );
    expect(junk.statusCode).toBe(400);
    expect(
      junk
        .json()
        .error.fields.map((f: { field: string }) => f.field)
        .sort(),
    ).toEqual(['accuracy', 'calibratedOn', 'rangeMax']);

    expect((await api('POST', `/api/v1/machines/${crypto.randomUUID()}/instruments`, gauge())).statusCode).toBe(404);
    expect((await api('GET', '/api/v1/machines/nope/instruments')).statusCode).toBe(404);
    expect(
      (await api('PATCH', `/api/v1/machines/${bench.id}/instruments/${crypto.randomUUID()}`, { kind: 'gauge', rangeMax: 1, accuracy: 1 }))
        .statusCode,
    ).toBe(404);
    const staff = await staffCookie(t);
    expect((await api('GET', `/api/v1/machines/${bench.id}/instruments`, undefined, staff)).statusCode).toBe(403);
    expect((await api('POST', `/api/v1/machines/${bench.id}/instruments`, gauge({ instrumentId: 'PG-05' }), staff)).statusCode).toBe(403);
  });

  it('a record names its instrument; the same record sent again is a duplicate, with another instrument a conflict', async () => {
    const bench = await createBench(t.app, admin);
    const s = serial();
    const r = record({ serial: s, instrumentId: 'PG-01' });
    expect((await postBatch(t.app, bench.key, { records: [r] })).json().data).toEqual({ stored: 1, duplicates: [] });
    expect((await postBatch(t.app, bench.key, { records: [r] })).json().data).toEqual({ stored: 0, duplicates: [r.recordId] });
    expect((await postBatch(t.app, bench.key, { records: [{ ...r, instrumentId: 'PG-02' }] })).statusCode).toBe(409);
    expect((await assessmentOf(s)).instrumentId).toBe('PG-01');
    const bad = await postBatch(t.app, bench.key, { records: [record({ instrumentId: 'x'.repeat(61) })] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.records[0]).toMatchObject({ field: 'instrumentId' });
  });

  it('stores one of the same instrument or calibration sent many times at once, and answers the rest 409', async () => {
    const bench = await createBench(t.app, admin);
    const created = await Promise.all(Array.from({ length: 20 }, () => api('POST', `/api/v1/machines/${bench.id}/instruments`, gauge())));
    expect(created.map((r) => r.statusCode).sort()).toEqual([201, ...Array(19).fill(409)]);
    const id = created.find((r) => r.statusCode === 201)!.json().data.id;
    const cal = { calibrationCertificate: 'CAL-X', calibratedOn: '2024-07-01', dueOn: '2025-01-01' };
    const recal = await Promise.all(
      Array.from({ length: 20 }, () => api('POST', `/api/v1/machines/${bench.id}/instruments/${id}/calibrations`, cal)),
    );
    expect(recal.map((r) => r.statusCode).sort()).toEqual([201, ...Array(19).fill(409)]);
    expect((await api('GET', `/api/v1/machines/${bench.id}/instruments`)).json().data[0].calibrations).toHaveLength(2);
  });
});

describe('records judged against their instrument', () => {
  it('holds a record measured out of calibration, by an unknown instrument or by none, and keeps old holds through a recalibration', async () => {
    await requireCalibrated(true);
    try {
      const bench = await createBench(t.app, admin);
      const inst = (await api('POST', `/api/v1/machines/${bench.id}/instruments`, gauge())).json().data;
      const [inCal, lastDay, expired, unknown, none] = [serial(), serial(), serial(), serial(), serial()];
      const res = await postBatch(t.app, bench.key, {
        records: [
          record({ serial: inCal, instrumentId: 'PG-01', testedAt: '2024-03-01T08:00:00.000Z' }),
          record({ serial: lastDay, instrumentId: 'PG-01', testedAt: '2024-07-10T23:59:00.000Z' }),
          record({ serial: expired, instrumentId: 'PG-01', testedAt: '2024-08-01T08:00:00.000Z' }),
          record({ serial: unknown, instrumentId: 'PG-99', testedAt: '2024-03-01T08:00:00.000Z' }),
          record({ serial: none, testedAt: '2024-03-01T08:00:00.000Z' }),
        ],
      });
      expect(res.statusCode, res.body).toBe(200);
      expect((await assessmentOf(inCal)).assessment.reasons).toEqual([]);
      expect((await assessmentOf(lastDay)).assessment.reasons).toEqual([]);
      expect((await assessmentOf(expired)).assessment).toMatchObject({ verdict: 'nonconforming', reasons: ['instrument-not-calibrated'] });
      expect((await assessmentOf(unknown)).assessment).toMatchObject({ verdict: 'nonconforming', reasons: ['instrument-unknown'] });
      expect((await assessmentOf(none)).assessment).toMatchObject({ verdict: 'nonconforming', reasons: ['instrument-unknown'] });

      // Recalibrated after the test day: that day stays uncovered, the record stays held.
      await api('POST', `/api/v1/machines/${bench.id}/instruments/${inst.id}/calibrations`, {
        calibrationCertificate: 'CAL-2024-140',
        calibratedOn: '2024-08-15',
        dueOn: '2025-02-15',
      });
      expect((await assessmentOf(expired)).assessment.reasons).toEqual(['instrument-not-calibrated']);

      // The calibration that did cover the day, entered late: the record is released.
      await api('POST', `/api/v1/machines/${bench.id}/instruments/${inst.id}/calibrations`, {
        calibrationCertificate: 'CAL-2024-090',
        calibratedOn: '2024-07-09',
        dueOn: '2024-08-14',
      });
      expect((await assessmentOf(expired)).assessment).toMatchObject({ verdict: 'not-assessed', reasons: [] });

      // The unknown instrument added to the bench, calibrated over the test day: released too.
      expect((await api('POST', `/api/v1/machines/${bench.id}/instruments`, gauge({ instrumentId: 'PG-99' }))).statusCode).toBe(201);
      expect((await assessmentOf(unknown)).assessment.reasons).toEqual([]);
      expect((await assessmentOf(none)).assessment.reasons).toEqual(['instrument-unknown']);

      // The same instrument id on another bench is another instrument.
      const other = await createBench(t.app, admin);
      const elsewhere = serial();
      await postBatch(t.app, other.key, {
        records: [record({ serial: elsewhere, instrumentId: 'PG-01', testedAt: '2024-03-01T08:00:00.000Z' })],
      });
      expect((await assessmentOf(elsewhere)).assessment.reasons).toEqual(['instrument-unknown']);

      // Switched off: what was held for its instrument is released.
      await requireCalibrated(false);
      expect((await assessmentOf(none)).assessment).toMatchObject({ verdict: 'not-assessed', reasons: [] });
      expect((await assessmentOf(elsewhere)).assessment.reasons).toEqual([]);
    } finally {
      await requireCalibrated(false);
    }
  });

  it('judges nothing of instruments while Settings do not require them', async () => {
    const bench = await createBench(t.app, admin);
    const s = serial();
    await postBatch(t.app, bench.key, { records: [record({ serial: s })] });
    expect((await assessmentOf(s)).assessment.reasons).toEqual([]);
    expect((await getSettings(t.app.ctx.db)).requireCalibratedInstruments).toBe(false);
  });
});

describe('the certificate', () => {
  it("prints each test's instrument with the calibration in force on its day, in both languages", async () => {
    const unit = await unitWithRecords(t, []);
    const inst = (
      await api('POST', `/api/v1/machines/${unit.bench.id}/instruments`, gauge({ calibratedOn: '2024-01-10', dueOn: '2024-07-10' }))
    ).json().data;
    await api('POST', `/api/v1/machines/${unit.bench.id}/instruments/${inst.id}/calibrations`, {
      calibrationCertificate: 'CAL-2024-140',
      calibratedOn: '2024-08-15',
      dueOn: '2025-02-15',
    });
    const sent = await postBatch(t.app, unit.bench.key, {
      records: [
        record({ serial: unit.serial, instrumentId: 'PG-01', testedAt: '2024-05-01T08:30:00.000Z' }),
        record({ serial: unit.serial, testType: 'seat', instrumentId: 'PG-01', testedAt: '2024-08-01T08:30:00.000Z' }),
      ],
    });
    expect(sent.statusCode, sent.body).toBe(200);
    let enFile = '';
    const text = async (language: 'en' | 'zh') => {
      const issued = await issueReport(t.app.ctx.db, { serial: unit.serial, language, publicBaseUrl: t.app.ctx.config.publicBaseUrl });
      expect(issued.status).toBe('issued');
      if (issued.status !== 'issued') return '';
      const file = tmpFile(issued.report.bytes);
      if (language === 'en') enFile = file;
      return poppler('pdftotext', ['-raw', file, '-']).replace(/\s+/g, ' ');
    };
    const en = await text('en');
    // The shell test fell within the first calibration; the seat test in the gap before the recalibration.
    expect(en).toContain('PG-01, calibration CAL-2024-017, due 10 Jul 2024');
    expect(en).toContain('PG-01 (no calibration in force on the test day)');
    expect(en).not.toContain('CAL-2024-140');
    // The embedded data says the same, per test.
    poppler('pdfdetach', ['-saveall', '-o', path.dirname(enFile), enFile]);
    const json = JSON.parse(fs.readFileSync(path.join(path.dirname(enFile), 'test-report.json'), 'utf8'));
    expect((json.D51_pressureTests as { testType: string; instrument: unknown }[]).map((x) => [x.testType, x.instrument])).toEqual([
      ['shell', { id: 'PG-01', calibrationCertificate: 'CAL-2024-017', calibrationDueOn: '2024-07-10' }],
      ['seat', { id: 'PG-01', calibrationCertificate: null, calibrationDueOn: null }],
    ]);
    // Chinese lines wrap between any two characters: compared without spaces.
    const zh = (await text('zh')).replace(/\s/g, '');
    expect(zh).toContain('PG-01，校正報告CAL-2024-017，有效至2024年7月10日');
    expect(zh).toContain('PG-01（測試當日無有效校正）');
  });
});
