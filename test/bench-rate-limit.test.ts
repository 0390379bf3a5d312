/**
 * The bench API's rate limit counts the verified bench, whatever the spelling of its Authorization header,
 * and requests without a valid key per client address. The limits are lowered here (they are read per
 * request) so that a few requests reach them.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INGEST_FAILURE_LIMIT, INGEST_RATE_LIMIT } from '../src/server/modules/machine-data/machine-data.routes';
import { buildTestApp, type TestApp } from './helpers/app';
import { randomIp } from './helpers/factories';
import { adminCookie, createBench } from './helpers/machine-data';

let t: TestApp;
let admin: string;
// The limits as the product sets them, put back for the files that run after this one in the same worker.
const product = { rate: INGEST_RATE_LIMIT.max, failures: INGEST_FAILURE_LIMIT.max };
beforeAll(async () => {
  t = await buildTestApp();
  admin = await adminCookie(t);
  INGEST_RATE_LIMIT.max = 8;
  INGEST_FAILURE_LIMIT.max = 5;
});
afterAll(async () => {
  INGEST_RATE_LIMIT.max = product.rate;
  INGEST_FAILURE_LIMIT.max = product.failures;
  await t.close();
});

function post(authorization: string | undefined, ip: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/machine-data',
    headers: { ...(authorization === undefined ? {} : { authorization }), 'content-type': 'application/json' },
    payload: JSON.stringify({ records: [] }),
    remoteAddress: ip,
  });
}

describe('a verified bench', () => {
  it('has one count, whatever the spelling of the header: bearer, BEARER, two spaces, a tab', async () => {
    const bench = await createBench(t.app, admin);
    const other = await createBench(t.app, admin);
    const spellings = [`Bearer ${bench.key}`, `bearer ${bench.key}`, `BEARER ${bench.key}`, `Bearer  ${bench.key}`, `Bearer\t${bench.key}`];
    const statuses: number[] = [];
    for (let i = 0; i < INGEST_RATE_LIMIT.max; i++) statuses.push((await post(spellings[i % spellings.length], randomIp())).statusCode);
    expect(statuses).toEqual(Array(INGEST_RATE_LIMIT.max).fill(200));
    for (const spelling of spellings) {
      const limited = await post(spelling, randomIp());
      expect(limited.statusCode, JSON.stringify(spelling)).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.json().error.status).toBe('RESOURCE_EXHAUSTED');
    }
    // Another bench has its own count.
    expect((await post(`Bearer ${other.key}`, randomIp())).statusCode).toBe(200);
  });
});

describe('requests without a valid key', () => {
  it('are counted per address, whatever header each one carries: past the limit 429, not a fresh 401', async () => {
    const ip = randomIp();
    const guesses = () => [
      undefined,
      'Bearer',
      `Bearer trc_live_${randomBytes(32).toString('base64url')}`,
      `Basic ${randomBytes(9).toString('base64')}`,
    ];
    for (let i = 0; i < INGEST_FAILURE_LIMIT.max; i++) {
      const res = await post(guesses()[i % 4], ip);
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
    }
    for (const guess of guesses()) {
      const res = await post(guess, ip);
      expect(res.statusCode).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    // Another address is still told 401, and a valid key from the same address still gets in.
    expect((await post(guesses()[2], randomIp())).statusCode).toBe(401);
    const bench = await createBench(t.app, admin);
    expect((await post(`Bearer ${bench.key}`, ip)).statusCode).toBe(200);
  });
});
