/**
 * docs/examples/read-report.mjs (the example in docs/integration.md) against a real issued report: it
 * extracts test-report.json and finds the signature valid; a changed byte fails it.
 * Also run as the command the guide shows, with the server's by-hash check.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueReport, type IssuedReport } from '../src/server/modules/reports/issue';
import { buildTestApp, type TestApp } from './helpers/app';
import { curve, tmpFile, unitWithRecords, type Unit } from './helpers/reports';
// @ts-expect-error: a plain JavaScript example, deliberately without types
import { readReport } from '../docs/examples/read-report.mjs';

interface Read {
  json: {
    A03_documentNumber: string;
    B07_productIdentification: { serial: string };
    D51_pressureTests: Array<{ recordId: string; samples: { points: number[][] } }>;
  };
  signature: { valid: boolean; problems: string[]; signer: string; certificateSha256: string };
  sha256: string;
}
const read = readReport as (pdf: Buffer) => Read;

let t: TestApp;
let unit: Unit;
let report: IssuedReport;

beforeAll(async () => {
  t = await buildTestApp();
  unit = await unitWithRecords(t, [
    { recordId: 'SHELL-1', testType: 'shell', testPressure: 2.4, holdingSeconds: 60, samples: curve(2.4, 60) },
    { recordId: 'SEAT-1', testType: 'seat', testPressure: 1.76, holdingSeconds: 30 },
  ]);
  const r = await issueReport(t.app.ctx.db, { serial: unit.serial, language: 'en', publicBaseUrl: t.app.ctx.config.publicBaseUrl });
  if (r.status !== 'issued') throw new Error(`expected issued, got ${r.status}`);
  report = r.report;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('the integration guide’s Node example', () => {
  it('extracts test-report.json and finds the PAdES signature valid', () => {
    const { json, signature, sha256 } = read(Buffer.from(report.bytes));
    expect(json.A03_documentNumber).toBe(report.number);
    expect(json.B07_productIdentification.serial).toBe(unit.serial);
    expect(json.D51_pressureTests.map((x) => x.recordId).sort()).toEqual(['SEAT-1', 'SHELL-1']);
    expect(json.D51_pressureTests.find((x) => x.recordId === 'SHELL-1')!.samples.points.length).toBe(200);
    expect(signature.problems).toEqual([]);
    expect(signature.valid).toBe(true);
    expect(signature.certificateSha256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('finds a changed byte in the signed content', () => {
    const bytes = Buffer.from(report.bytes);
    const at = bytes.indexOf(unit.serial);
    bytes[at] = bytes[at]! ^ 0x01;
    const { signature } = read(bytes);
    expect(signature.valid).toBe(false);
    expect(signature.problems.join()).toContain('changed after signing');
  });

  it('runs as the command the guide shows, and the server confirms it issued this very file', async () => {
    const url = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { stdout } = await promisify(execFile)(process.execPath, [
      'docs/examples/read-report.mjs',
      tmpFile(Buffer.from(report.bytes)),
      url,
    ]);
    expect(stdout).toContain(`Report ${report.number} for ${unit.serial}`);
    expect(stdout).toContain('Signature: valid');
    expect(stdout).toContain(`Issued by ${url}: yes (${report.number})`);
  });
});
