/**
 * What the verification tells beside the key facts: the results (each test with the required and the
 * measured values, worded as the PDF words them, in the visitor's language), the standard, the signer,
 * and that only a checked file (by its SHA-256) is called unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueReport, type IssuedReport } from '../src/server/modules/reports/issue';
import { embeddedFileBytes } from '../src/server/lib/pdf-attachment';
import { detailsOfReportJson } from '../src/server/modules/reports/verification-details';
import { translate } from '../src/shared/i18n/index';
import { STANDARDS } from '../src/shared/standards/requirement';
import { buildTestApp, type TestApp } from './helpers/app';
import { randomIp } from './helpers/factories';
import { curve, unitWithRecords, type Unit } from './helpers/reports';

let t: TestApp;
let unit: Unit;
let report: IssuedReport;

beforeAll(async () => {
  t = await buildTestApp();
  unit = await unitWithRecords(
    t,
    [
      { testType: 'shell', testPressure: 2.4, holdingSeconds: 60, samples: curve(2.4, 60) },
      { testType: 'seat', testPressure: 1.76, holdingSeconds: 30, leakageValue: 0.5, leakageUnit: 'mL/min', samples: curve(1.76, 30) },
    ],
    {
      name: 'Gate Valve DN50',
      testStandard: 'en-12266-1',
      valveType: 'gate',
      nominalSize: 50,
      seatType: 'metal',
      leakageRate: 'E',
      pressureWcb: '',
    },
  );
  const r = await issueReport(t.app.ctx.db, { serial: unit.serial, language: 'en', publicBaseUrl: t.app.ctx.config.publicBaseUrl });
  if (r.status !== 'issued') throw new Error(r.status);
  report = r.report;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const get = (url: string, language = 'en') =>
  t.app.inject({ method: 'GET', url, remoteAddress: randomIp(), headers: { 'accept-language': language } });

describe('verification details', () => {
  it('shows the results, the standard and the signer as the report states them', async () => {
    const res = await get(`/api/v1/public/reports/${report.id}`);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.fileChecked).toBe(false);
    const json = JSON.parse(embeddedFileBytes(report.bytes)!.toString('utf8'));
    expect(data.details).toMatchObject({
      signer: json.Z03_validation.signedBy,
      standard: { name: 'EN 12266-1', edition: json.B03_supplementaryRequirements.testStandard.edition },
      productionDate: '2024-03-01',
      statement: json.Z01_statementOfCompliance,
    });
    const [shell, seat] = data.details.tests;
    expect(shell).toMatchObject({
      testType: 'shell',
      name: 'Shell test',
      measured: { pressure: '2.4 MPa', hold: '60 s', leakage: '—' },
      verdict: json.D51_pressureTests[0].verdict,
    });
    expect(shell.required.pressure).toMatch(/2\.4/);
    expect(shell.required.hold).toMatch(/^(At least|≥) ?\d+ s$/);
    expect(seat).toMatchObject({ testType: 'seat', measured: { pressure: '1.76 MPa', hold: '30 s', leakage: '0.5 mL/min' } });
    expect(seat.verdictText).toBe(
      translate(
        'en',
        seat.verdict === 'conforms'
          ? 'reports.verdict.conforms'
          : seat.verdict === 'nonconforming'
            ? 'reports.verdict.nonconforming'
            : 'reports.verdict.bench.pass',
      ),
    );
  });

  it('words the results in the visitor’s language, whatever the report’s', async () => {
    const res = await get(`/api/v1/public/reports/by-code/${report.code}`, 'zh-TW');
    const shell = res.json().data.details.tests[0];
    expect(shell.name).toBe(translate('zh', 'reports.test.shell'));
    expect(res.json().data.fileChecked).toBe(false);
    // The English report prints the edition in English; the Chinese page words it as a zh report would.
    expect(JSON.parse(embeddedFileBytes(report.bytes)!.toString('utf8')).B03_supplementaryRequirements.testStandard.edition).toBe(
      STANDARDS['en-12266-1'].edition,
    );
    expect(res.json().data.details.standard).toEqual({ name: 'EN 12266-1', edition: STANDARDS['en-12266-1'].editionZh });
    const en = await get(`/api/v1/public/reports/by-code/${report.code}`, 'en');
    expect(en.json().data.details.standard).toEqual({ name: 'EN 12266-1', edition: STANDARDS['en-12266-1'].edition });
  });

  it('reads a report of the 1.x JSON (standard in B02, tests in D02) as one of 2.0', () => {
    const json = JSON.parse(embeddedFileBytes(report.bytes)!.toString('utf8'));
    const { B03_supplementaryRequirements: b03, D51_pressureTests: tests, ...rest } = json;
    const older = { ...rest, schemaVersion: '1.1', B02_testStandard: b03.testStandard, D02_pressureTests: tests };
    const now = detailsOfReportJson(json, 'en');
    expect(now?.tests).toHaveLength(2);
    expect(detailsOfReportJson(older, 'en')).toEqual(now);
    expect(detailsOfReportJson({ ...rest }, 'en')).toBeNull();
  });

  it('calls only a file checked by its SHA-256 the one issued', async () => {
    const res = await get(`/api/v1/public/reports/by-hash/${report.sha256}`);
    expect(res.json().data.fileChecked).toBe(true);
    expect(res.json().data.details.tests).toHaveLength(2);
  });
});
