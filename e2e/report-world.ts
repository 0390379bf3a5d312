/**
 * A released unit with its report, made through the APIs as the browser tests need it: a check valve of
 * API 598 with passing shell and seat records sent by a bench, and its report issued through the public
 * request (one solved challenge).
 */
import { solveChallenge } from 'altcha-lib/v1';
import { expect, type APIRequestContext } from '@playwright/test';
import { createProduct, createRange, stamp } from './catalogue-helpers';
import { noLeakageSeen } from './machine-data-helpers';

export interface World {
  prefix: string;
  product: string;
  reportId: string;
}

export function curve(n: number, p: number, hold: number) {
  const end = 30 + hold;
  return Array.from({ length: n }, (_, i) => {
    const t = Math.round((i / (n - 1)) * end * 1000) / 1000;
    const v = t < 20 ? (p * t) / 20 : t < 20 + hold ? p - (t - 20) * 0.0005 : Math.max(0, p * (1 - (t - 20 - hold) / 10));
    return { t, p: Math.round(v * 1000) / 1000 };
  });
}

/** A report issued through the public API as the page would ask for it (one solved challenge). */
export async function issue(request: APIRequestContext, serial: string): Promise<string> {
  const c = ((await (await request.get('/api/v1/public/challenge')).json()) as { data: Record<string, string> & { maxnumber: number } })
    .data;
  const solution = await solveChallenge(c.challenge!, c.salt!, c.algorithm!, c.maxnumber).promise;
  const challenge = Buffer.from(
    JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number: solution!.number, salt: c.salt, signature: c.signature }),
  ).toString('base64');
  const res = await request.post('/api/v1/public/report-requests', {
    data: { serial, email: `labels.${stamp()}@example.com`, agreeToTerms: true, language: 'en', challenge },
  });
  expect(res.status(), await res.text()).toBe(200);
  const id = ((await res.json()) as { data: { results: Array<{ reportId: string | null }> } }).data.results[0]!.reportId;
  expect(id).toBeTruthy();
  return id!;
}

export async function makeWorld(request: APIRequestContext): Promise<World> {
  const s = stamp().toUpperCase();
  const prefix = `LV${s}-`;
  // API 598, a check valve DN 50 of WCB rated 2.5 MPa: shell ≥ 3.8 and seat ≥ 2.8 MPa (1.5 and 1.1 × 2.5 rounded up
  // to the next bar), the seat's leakage counted.
  const product = await createProduct(request, {
    name: `Check Valve DN50 ${s}`,
    pressureWcb: 2.5,
    testStandard: 'api-598',
    valveType: 'check',
    nominalSize: 50,
    seatType: 'metal',
    pressureClass: 'CL300',
  });
  await createRange(request, {
    productId: product.id,
    startSerial: `${prefix}000001`,
    endSerial: `${prefix}000500`,
    totalUnits: 500,
    productionDate: '2025-03-01',
    bodyMaterial: 'wcb',
  });
  const bench = await request.post('/api/v1/machines', { data: { name: `Labels Bench ${s}` } });
  expect(bench.status(), await bench.text()).toBe(201);
  const key = ((await bench.json()) as { data: { key: string } }).data.key;
  const serial = `${prefix}000001`;
  const base = { medium: 'water', holdingSeconds: 60, leakageValue: null, leakageUnit: null, operator: 'Lin', result: 'pass', serial };
  const records = [
    {
      ...base,
      recordId: `${s}-shell`,
      testType: 'shell',
      testPressure: 3.8,
      testedAt: '2025-03-03T08:00:00Z',
      samples: curve(300, 3.8, 60),
    },
    {
      ...base,
      recordId: `${s}-seat`,
      testType: 'seat',
      testPressure: 2.8,
      ...noLeakageSeen('mL/min'),
      testedAt: '2025-03-03T08:05:00Z',
      samples: curve(300, 2.8, 60),
    },
  ];
  const res = await request.post('/api/v1/machine-data', { headers: { authorization: `Bearer ${key}` }, data: { records } });
  expect(res.status(), await res.text()).toBe(200);
  return { prefix, product: product.name, reportId: await issue(request, serial) };
}
