/** Helpers of the machine-data tests: benches with keys, valid records, batches posted with a key. */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { TestApp } from './app';
import { staffCookie } from './catalogue';

export async function adminCookie(t: TestApp): Promise<string> {
  return staffCookie(t, { role: 'admin' });
}

/** A new bench through the API: its id, name and the key shown once. */
export async function createBench(app: FastifyInstance, cookie: string, name = `Bench ${randomBytes(3).toString('hex')}`) {
  const res = await app.inject({ method: 'POST', url: '/api/v1/machines', headers: { cookie }, payload: { name } });
  if (res.statusCode !== 201) throw new Error(`createBench: ${res.statusCode} ${res.body}`);
  const { machine, key } = res.json().data as { machine: { id: string; name: string }; key: string };
  return { id: machine.id, name: machine.name, key };
}

let seq = 0;
/**
 * Samples of the default record: up to 2.4 MPa in 1.5 s, then held for 60 s with a sample every second, so
 * that they evidence any holding time up to 60 s whatever its gap limit (src/shared/standards/sample-checks.ts
 * maxSampleGap: at least 1 s).
 */
export const HELD_SAMPLES = [{ t: 0, p: 0 }, ...Array.from({ length: 61 }, (_, i) => ({ t: 1.5 + i, p: i === 0 ? 2.41 : 2.4 }))];

/** A valid test record; `recordId` is unique unless overridden. */
export function record(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  seq += 1;
  return {
    recordId: `R-${randomBytes(4).toString('hex')}-${seq}`,
    serial: 'VB2311-000123',
    testType: 'shell',
    medium: 'water',
    testPressure: 2.4,
    holdingSeconds: 60,
    leakageValue: null,
    leakageUnit: null,
    result: 'pass',
    testedAt: '2024-05-01T08:30:00.000Z',
    operator: 'Chen',
    samples: HELD_SAMPLES,
    ...overrides,
  };
}

export function records(n: number, overrides: (i: number) => Record<string, unknown> = () => ({})) {
  return Array.from({ length: n }, (_, i) => record(overrides(i)));
}

export function postBatch(app: FastifyInstance, key: string | null, body: unknown, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/machine-data',
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), 'content-type': 'application/json', ...headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** `index:field:key` of each record a refused batch names. */
export function problemsOf(res: { json(): unknown }): string[] {
  const body = res.json() as { error: { records?: { index: number; field: string; key: string }[] } };
  return (body.error.records ?? []).map((r) => `${r.index}:${r.field}:${r.key}`);
}
