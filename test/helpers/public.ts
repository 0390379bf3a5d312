/** Helpers of the public report-request tests: a catalogue with test data, solved challenges, requests. */
import { randomBytes } from 'node:crypto';
import { solveChallenge } from 'altcha-lib/v1';
import type { FastifyInstance } from 'fastify';
import type { TestApp } from './app';
import { addProduct, postRange, rangeBody, staffCookie } from './catalogue';
import { randomIp } from './factories';
import { createBench, postBatch, record } from './machine-data';
import { solvedChallengeFast } from './pow';

/** A series of its own per call, so tests in one file never share serials (or their rate limits). */
/** A fresh series prefix: 24 random bits written as 6 letters (digits would run into the serial's number). */
export function series(): string {
  const letters = 'ABCDEFGHJKLMNPQR'; // 16 distinct letters, one per hex digit: no two draws alike by accident
  return `T${[...randomBytes(3).toString('hex')].map((h) => letters[parseInt(h, 16)]).join('')}-`;
}

export interface Catalogue {
  productName: string;
  prefix: string;
  serial(n: number): string;
}

/** A product and a range of 100 units `<prefix>000001`…`<prefix>000100`. */
export async function catalogue(t: TestApp, overrides: Record<string, unknown> = {}): Promise<Catalogue> {
  const cookie = await staffCookie(t);
  const product = await addProduct(t.app, cookie, overrides);
  const prefix = series();
  const serial = (n: number) => `${prefix}${String(n).padStart(6, '0')}`;
  const res = await postRange(t.app, cookie, rangeBody(product.id, serial(1), serial(100), 100));
  if (res.statusCode !== 201) throw new Error(`range: ${res.statusCode} ${res.body}`);
  return { productName: product.name, prefix, serial };
}

/** Test records for `serial`: shell and seat, each passed (or as `results` says). */
export async function testData(
  t: TestApp,
  serial: string,
  results: { shell?: 'pass' | 'fail'; seat?: 'pass' | 'fail' } = {},
): Promise<void> {
  const admin = await staffCookie(t, { role: 'admin' });
  const bench = await createBench(t.app, admin);
  const res = await postBatch(t.app, bench.key, {
    records: [
      record({ serial, testType: 'shell', result: results.shell ?? 'pass' }),
      record({ serial, testType: 'seat', result: results.seat ?? 'pass', testPressure: 1.76, medium: 'air' }),
    ],
  });
  if (res.statusCode >= 300) throw new Error(`records: ${res.statusCode} ${res.body}`);
}

/**
 * A challenge from the API, solved with altcha-lib's own solver; the payload for `challenge`. About a
 * second each: the tests of the challenge itself use it (test/public-challenge.test.ts); requests that
 * only need some valid challenge get one from solvedChallengeFast (postRequest).
 */
export async function solvedChallenge(app: FastifyInstance): Promise<string> {
  const res = await app.inject({ url: '/api/v1/public/challenge', remoteAddress: randomIp() });
  if (res.statusCode !== 200) throw new Error(`challenge: ${res.statusCode} ${res.body}`);
  const c = res.json().data as { algorithm: string; challenge: string; maxnumber: number; salt: string; signature: string };
  const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
  if (!solution) throw new Error('challenge not solved');
  return Buffer.from(
    JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number: solution.number, salt: c.salt, signature: c.signature }),
  ).toString('base64');
}

export function requestBody(overrides: Record<string, unknown>): Record<string, unknown> {
  return { email: `visitor-${randomBytes(4).toString('hex')}@example.com`, agreeToTerms: true, language: 'en', ...overrides };
}

export async function postRequest(
  app: FastifyInstance,
  body: Record<string, unknown>,
  options: { ip?: string; headers?: Record<string, string> } = {},
) {
  // Any valid solution will do here: the same work altcha-lib's solver does, with node's synchronous
  // SHA-256 (test/helpers/pow.ts) instead of a second of awaited Web Crypto per request.
  const payload = 'challenge' in body ? body : { ...body, challenge: await solvedChallengeFast(app) };
  return app.inject({
    method: 'POST',
    url: '/api/v1/public/report-requests',
    payload,
    remoteAddress: options.ip ?? randomIp(),
    headers: { 'user-agent': 'Mozilla/5.0 (test)', ...options.headers },
  });
}

export function lookup(app: FastifyInstance, serial: unknown, options: { ip?: string; headers?: Record<string, string> } = {}) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/public/lookup',
    payload: { serial },
    remoteAddress: options.ip ?? randomIp(),
    headers: options.headers,
  });
}
