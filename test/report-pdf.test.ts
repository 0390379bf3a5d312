/**
 * The report PDF as a customer's tools see it: poppler's pdftotext (serial, product, results, statement,
 * in en and zh), pdfinfo (tagged, metadata), pdfsig (signature valid, document unmodified), pdfdetach (the
 * embedded test-report.json matches the records), and the QR code decoded from a rendered page.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueReport, type IssuedReport } from '../src/server/modules/reports/issue';
import { renderReportPdf } from '../src/server/modules/reports/pdf/render-pdf';
import { benchModel } from '../bench/lib/report-fixture';
import { buildTestApp, type TestApp } from './helpers/app';
import { curve, poppler, tmpFile, unitWithRecords, type Unit } from './helpers/reports';

let t: TestApp;
let unit: Unit;
const issued: Partial<Record<'en' | 'zh', IssuedReport>> = {};
const shellSamples = curve(2.4, 60, 2000);

async function issue(language: 'en' | 'zh'): Promise<IssuedReport> {
  const r = await issueReport(t.app.ctx.db, { serial: unit.serial, language, publicBaseUrl: t.app.ctx.config.publicBaseUrl });
  if (r.status !== 'issued') throw new Error(`expected issued, got ${r.status}`);
  return r.report;
}

beforeAll(async () => {
  t = await buildTestApp();
  unit = await unitWithRecords(
    t,
    [
      { recordId: 'SHELL-1', testType: 'shell', testPressure: 2.4, holdingSeconds: 60, samples: shellSamples, operator: 'Chen Wei' },
      {
        recordId: 'SEAT-1',
        testType: 'seat',
        testPressure: 1.76,
        holdingSeconds: 30,
        result: 'fail',
        testedAt: '2024-05-01T09:00:00Z',
        samples: curve(1.76, 30),
      },
      {
        recordId: 'SEAT-2',
        testType: 'seat',
        testPressure: 1.76,
        holdingSeconds: 30,
        testedAt: '2024-05-01T10:00:00Z',
        leakageValue: 0.5,
        leakageUnit: 'mL/min',
        samples: curve(1.76, 30),
      },
    ],
    // EN 12266-1, DN 50, rate E: the seat may leak 0.3 × 50 = 15 mm³/s; 0.5 mL/min is 8.3 mm³/s.
    {
      name: 'Gate Valve DN50 閘閥',
      testStandard: 'en-12266-1',
      valveType: 'gate',
      nominalSize: 50,
      seatType: 'metal',
      leakageRate: 'E',
      pressureWcb: '',
    },
  );
  issued.en = await issue('en');
  issued.zh = await issue('zh');
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('the report PDF', () => {
  it('reads as the report in English: serial, product, ratings, results, retest, standard, statement', () => {
    const text = poppler('pdftotext', ['-layout', tmpFile(issued.en!.bytes), '-']);
    expect(text).toContain(unit.serial);
    expect(text).toContain('Gate Valve DN50 閘閥');
    expect(text).toContain('Test Report');
    expect(text).toContain(issued.en!.number);
    expect(text).toMatch(/Shell test — Conforms/);
    expect(text).toMatch(/Seat test — Conforms/);
    expect(text).toContain('EN 12266-1');
    expect(text).toContain('2.4 MPa');
    expect(text).toContain('0.5 mL/min');
    expect(text).toMatch(/1 earlier test\(s\) of this type/);
    expect(text).toContain('Chen Wei');
    expect(text).toContain('We hereby certify');
    expect(text).toMatch(/Page 1 of \d/);
    expect(issued.en!.number).toMatch(/^TR-\d{4}-\d{6}$/);
    expect(issued.en!.filename).toBe(`test-report-${unit.serial}.pdf`);
  });

  it('says that a 2.2 test report gives this unit’s own results, which 2.2 does not require (decision 0049)', async () => {
    const text = poppler('pdftotext', [tmpFile(issued.en!.bytes), '-']).replace(/\s+/g, ' ');
    expect(text).toContain("The results below are this unit's own tests.");
    const zh = poppler('pdftotext', [tmpFile(issued.zh!.bytes), '-']).replace(/\s+/g, '');
    expect(zh).toContain('以下為本臺閥門自身的測試結果');
    const certificate = benchModel('en');
    certificate.documentType = 'inspection-certificate-3.1';
    const pdf = await renderReportPdf(certificate);
    expect(poppler('pdftotext', [tmpFile(pdf), '-'])).not.toContain('own tests');
  });

  it('reads as the report in Traditional Chinese, the Chinese text extractable', () => {
    const text = poppler('pdftotext', ['-layout', tmpFile(issued.zh!.bytes), '-']);
    expect(text).toContain(unit.serial);
    expect(text).toContain('測試報告');
    expect(text).toContain('殼體測試 — 符合');
    expect(text).toContain('閥座測試 — 符合');
    expect(text).toContain('茲證明上述產品');
    expect(text).toMatch(/第 1 頁，共 \d 頁/);
    expect(text).toMatch(/2024年5月1日/);
  });

  it('is tagged, in its language, with title, author, subject and creation date', () => {
    for (const lang of ['en', 'zh'] as const) {
      const info = poppler('pdfinfo', [tmpFile(issued[lang]!.bytes)]);
      expect(info).toMatch(/Tagged:\s+yes/);
      expect(info).toMatch(new RegExp(`Title:\\s+.*${issued[lang]!.number}`));
      expect(info).toMatch(/Author:\s+Test Report Center/);
      expect(info).toMatch(new RegExp(`Subject:\\s+.*${unit.serial}`));
      expect(info).toMatch(/CreationDate:\s+\S+/);
      const raw = issued[lang]!.bytes.toString('latin1');
      expect(raw).toContain(lang === 'en' ? '/Lang (en-GB)' : '/Lang (zh-Hant-TW)');
      expect(raw).toContain('<pdfaid:part>3</pdfaid:part>');
    }
  });

  it('is signed (PAdES): pdfsig finds the signature valid and the whole document covered', () => {
    const out = poppler('pdfsig', [tmpFile(issued.en!.bytes)]);
    expect(out).toContain('Signature is Valid');
    expect(out).toContain('Total document signed');
    expect(out).toContain('ETSI.CAdES.detached');
    // The self-signed certificate is not in any trust store: poppler says so, and that is expected.
    expect(out).toMatch(/Certificate Validation: (Certificate issuer is unknown|Certificate is Trusted)/);
  });

  it('detects a changed byte: pdfsig no longer finds it valid', () => {
    const bytes = Buffer.from(issued.en!.bytes);
    const at = bytes.indexOf(Buffer.from(unit.serial));
    bytes[at] = bytes[at] === 0x54 ? 0x55 : 0x54;
    expect(poppler('pdfsig', [tmpFile(bytes)])).not.toContain('Signature is Valid');
  });

  it('carries test-report.json with EN 10168 codes, every test and its samples, matching the records', () => {
    const file = tmpFile(issued.en!.bytes);
    const dir = path.dirname(file);
    expect(poppler('pdfdetach', ['-list', file])).toContain('test-report.json');
    execFileSync('pdfdetach', ['-saveall', '-o', dir, file]);
    const json = JSON.parse(fs.readFileSync(path.join(dir, 'test-report.json'), 'utf8'));
    expect(json.schemaVersion).toBe('2.4');
    expect(json.A02_documentType).toMatchObject({ standard: 'EN 10204', type: '2.2' });
    expect(json.A03_documentNumber).toBe(issued.en!.number);
    expect(json.B07_productIdentification.serial).toBe(unit.serial);
    expect(json.B01_product.name).toBe('Gate Valve DN50 閘閥');
    expect(json.B03_supplementaryRequirements.testStandard).toMatchObject({ id: 'en-12266-1', name: 'EN 12266-1' });
    expect(json.Z01_statementOfCompliance).toContain('We hereby certify');
    expect(json.Z02_dateOfIssue).toBe(issued.en!.issuedAt.toISOString());
    const tests = json.D51_pressureTests as Array<{
      recordId: string;
      samples: { points: number[][] };
      checksFromSamples: { holdingTimeMet: boolean };
    }>;
    expect(tests.map((x) => x.recordId)).toEqual(['SHELL-1', 'SEAT-2']);
    expect(tests[0]!.samples.points).toHaveLength(2000);
    expect(tests[0]!.samples.points[1234]).toEqual([shellSamples[1234]!.t, shellSamples[1234]!.p]);
    expect(tests[0]!.checksFromSamples.holdingTimeMet).toBe(true);
    expect(tests[1]).toMatchObject({
      testType: 'seat',
      earlierTests: 1,
      result: 'pass',
      leakage: { value: 0.5, unit: 'mL/min' },
      bench: unit.bench.name,
    });
    expect(json.verification).toMatchObject({ id: issued.en!.id, url: `http://localhost:3000/search?report=${issued.en!.id}` });
  });

  it('prints a QR code that decodes to the verification link and its proof', () => {
    const file = tmpFile(issued.zh!.bytes);
    execFileSync('pdftoppm', ['-r', '150', '-png', '-f', '1', '-l', '1', file, path.join(path.dirname(file), 'page')]);
    const pngFile = fs.readdirSync(path.dirname(file)).find((f) => f.startsWith('page') && f.endsWith('.png'))!;
    const png = PNG.sync.read(fs.readFileSync(path.join(path.dirname(file), pngFile)));
    const qr = jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.byteLength), png.width, png.height);
    // The link, then the offline proof after `#` (test/offline-proof.test.ts checks the proof).
    expect(qr?.data.split('#')[0]).toBe(`http://localhost:3000/search?report=${issued.zh!.id}`);
    expect(qr?.data.split('#')[1]).toMatch(/^[\w-]+\.[\w-]+\.[\w-]{86}$/);
  });

  it('uses an unguessable id (128 random bits) and a short code', () => {
    expect(issued.en!.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(issued.en!.id).not.toBe(issued.zh!.id);
    expect(issued.en!.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{10}$/);
  });

  it('stays under 200 KB with Chinese text, a 2,000-point chart and the samples embedded', () => {
    expect(issued.en!.bytes.length).toBeLessThan(200 * 1024);
    expect(issued.zh!.bytes.length).toBeLessThan(200 * 1024);
  });
});
