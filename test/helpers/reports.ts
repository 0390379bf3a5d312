/** Helpers of the report tests: a unit with a product, a range and test records sent by a bench; poppler tools. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestApp } from './app';
import { addProduct, postRange, rangeBody } from './catalogue';
import { adminCookie, createBench, postBatch, record } from './machine-data';

/** API 598 gate valve DN 100, metal seat, WCB rated 1.96 MPa: shell ≥ 2.94 MPa 60 s, backseat ≥ 2.156 MPa. */
export const API598_GATE = {
  testStandard: 'api-598',
  valveType: 'gate',
  nominalSize: 100,
  seatType: 'metal',
  pressureClass: 'CL150',
  pressureWcb: 1.96,
  pressureFc: '',
};

export interface Unit {
  serial: string;
  product: { id: string; name: string };
  bench: { id: string; name: string; key: string };
  admin: string;
}

let n = 0;
/** A product with a range of 100 units; `records` (may be empty) sent for the range's first serial. */
export async function unitWithRecords(
  t: TestApp,
  records: Array<Record<string, unknown>>,
  productOverrides: Record<string, unknown> = {},
  rangeOverrides: Record<string, unknown> = {},
): Promise<Unit> {
  n += 1;
  const admin = await adminCookie(t);
  const product = await addProduct(t.app, admin, productOverrides);
  const prefix = `TR${String(n).padStart(2, '0')}${Math.random().toString(36).slice(2, 6).toUpperCase().replace(/[0-9]/g, 'X')}-`;
  const res = await postRange(t.app, admin, rangeBody(product.id, `${prefix}000100`, `${prefix}000199`, 100, rangeOverrides));
  if (res.statusCode !== 201) throw new Error(`range: ${res.statusCode} ${res.body}`);
  const bench = await createBench(t.app, admin);
  const serial = `${prefix}000100`;
  if (records.length) {
    const r = await postBatch(t.app, bench.key, { records: records.map((o) => record({ serial, ...o })) });
    if (r.statusCode >= 300) throw new Error(`records: ${r.statusCode} ${r.body}`);
  }
  return { serial, product, bench, admin };
}

/** A pressure curve: ramp to `pressure` in 5 s, hold for `hold` s with a slight decay, release. */
export function curve(pressure: number, hold: number, points = 200): Array<{ t: number; p: number }> {
  const total = 5 + hold + 3;
  return Array.from({ length: points }, (_, i) => {
    const t = Math.round(((total * i) / (points - 1)) * 1000) / 1000;
    const p =
      t < 5
        ? (pressure * 1.01 * t) / 5
        : t <= 5 + hold
          ? pressure * 1.01 - (0.005 * pressure * (t - 5)) / Math.max(1, hold)
          : Math.max(0, pressure * (1 - (t - 5 - hold) / 3));
    return { t, p: Math.round(p * 10000) / 10000 };
  });
}

export function tmpFile(bytes: Buffer, name = 'report.pdf'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-report-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}

/** Runs a poppler tool; its stdout (and stderr, since pdfsig writes some lines there). */
export function poppler(tool: string, args: string[]): string {
  try {
    return execFileSync(tool, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    return `${e.stdout ?? ''}${e.stderr ?? ''}`;
  }
}
