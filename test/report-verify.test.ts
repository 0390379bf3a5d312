/**
 * Public verification: facts of a genuine report by id, short code and SHA-256; the stored bytes as
 * application/pdf; "newer test data exists" after a new record; the same bare 404 for anything unknown or
 * tampered; a per-address rate limit.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatReportCode } from '../src/shared/contract/reports';
import { issueReport, type IssuedReport } from '../src/server/modules/reports/issue';
import { buildTestApp, type TestApp } from './helpers/app';
import { randomIp } from './helpers/factories';
import { postBatch, record } from './helpers/machine-data';
import { unitWithRecords, type Unit } from './helpers/reports';

let t: TestApp;
let unit: Unit;
let report: IssuedReport;

beforeAll(async () => {
  t = await buildTestApp();
  unit = await unitWithRecords(t, [{ testType: 'shell' }], { name: 'Ball Valve 球閥' });
  const r = await issueReport(t.app.ctx.db, { serial: unit.serial, language: 'zh', publicBaseUrl: t.app.ctx.config.publicBaseUrl });
  if (r.status !== 'issued') throw new Error(r.status);
  report = r.report;
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const get = (url: string, ip = randomIp()) => t.app.inject({ method: 'GET', url, remoteAddress: ip });

describe('verification', () => {
  it('says a report is genuine by its id, with its key facts', async () => {
    const res = await get(`/api/v1/public/reports/${report.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      genuine: true,
      id: report.id,
      number: report.number,
      code: formatReportCode(report.code),
      serial: unit.serial,
      productName: 'Ball Valve 球閥',
      documentType: 'test-report-2.2',
      language: 'zh',
      issuedAt: report.issuedAt.toISOString(),
      sha256: report.sha256,
      newerDataExists: false,
      supersededBy: null,
      pdfPath: `/api/v1/public/reports/${report.id}.pdf`,
      // A link says what was issued; only a file checked by its hash is called the same file.
      fileChecked: false,
      details: expect.objectContaining({ tests: [expect.objectContaining({ testType: 'shell' })] }),
    });
  });

  it('serves the stored bytes as a PDF named after the serial', async () => {
    const res = await get(`/api/v1/public/reports/${report.id}.pdf`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`inline; filename="test-report-${unit.serial}.pdf"`);
    expect(res.rawPayload.equals(report.bytes)).toBe(true);
    const dl = await get(`/api/v1/public/reports/${report.id}.pdf?download`);
    expect(dl.headers['content-disposition']).toMatch(/^attachment; /);
  });

  it("keeps a served PDF in this app's recently used PDFs (app.ctx.pdfs), the bytes it served", async () => {
    const res = await get(`/api/v1/public/reports/${report.id}.pdf`);
    expect(res.statusCode).toBe(200);
    const kept = t.app.ctx.pdfs.get(report.id);
    expect(kept?.sha256).toBe(report.sha256);
    expect(kept?.bytes.equals(res.rawPayload)).toBe(true);
  });

  it('finds it by the short code as printed, in lower case, or without the dash', async () => {
    for (const code of [formatReportCode(report.code), report.code.toLowerCase(), ` ${report.code} `]) {
      const res = await get(`/api/v1/public/reports/by-code/${encodeURIComponent(code)}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.id).toBe(report.id);
    }
  });

  it('finds it by the SHA-256 of the file, and not by the hash of a changed file', async () => {
    const ok = await get(`/api/v1/public/reports/by-hash/${report.sha256.toUpperCase()}`);
    expect(ok.json().data.number).toBe(report.number);
    const tampered = Buffer.from(report.bytes);
    const at = tampered.length - 20;
    tampered[at] = tampered[at]! ^ 1;
    const res = await get(`/api/v1/public/reports/by-hash/${createHash('sha256').update(tampered).digest('hex')}`);
    expect(res.statusCode).toBe(404);
  });

  it('answers the same bare 404 for unknown or malformed ids, codes and hashes', async () => {
    const urls = [
      '/api/v1/public/reports/AAAAAAAAAAAAAAAAAAAAAA',
      '/api/v1/public/reports/AAAAAAAAAAAAAAAAAAAAAA.pdf',
      '/api/v1/public/reports/x',
      `/api/v1/public/reports/${'%00'.repeat(3)}`,
      '/api/v1/public/reports/by-code/ZZZZZ-ZZZZZ',
      '/api/v1/public/reports/by-code/short',
      `/api/v1/public/reports/by-hash/${'0'.repeat(64)}`,
      '/api/v1/public/reports/by-hash/not-hex',
    ];
    const bodies = new Set<string>();
    for (const url of urls) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      const body = res.json();
      expect(body.data).toBeUndefined();
      bodies.add(JSON.stringify({ status: body.error.status, message: body.error.message }));
    }
    expect([...bodies]).toEqual([
      JSON.stringify({
        status: 'NOT_FOUND',
        message: 'This report is not known. Check the link or the code, or contact the manufacturer.',
      }),
    ]);
  });

  it('says when newer test data exists than the report shows', async () => {
    await postBatch(t.app, unit.bench.key, { records: [record({ serial: unit.serial, testType: 'seat' })] });
    const res = await get(`/api/v1/public/reports/${report.id}`);
    expect(res.json().data.newerDataExists).toBe(true);
  });

  it('limits lookups per address', async () => {
    const ip = randomIp();
    let last = 0;
    for (let i = 0; i < 61; i++) last = (await get('/api/v1/public/reports/by-code/ZZZZZ-ZZZZZ', ip)).statusCode;
    expect(last).toBe(429);
    expect((await get(`/api/v1/public/reports/${report.id}`)).statusCode).toBe(200);
  });
});
