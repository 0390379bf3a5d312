/**
 * The proof-of-work of the report request: refused when missing, wrong, expired or used before; 50
 * simultaneous replays of one solution are accepted once; a challenge made by one instance is accepted by
 * another (the key lives in the database). Requests here name serials that do not exist, so they are
 * recorded as not-found without issuing anything.
 */
import { createChallenge, solveChallenge } from 'altcha-lib/v1';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/server/app';
import { powSecrets, searchRequests } from '../src/server/db/schema/index';
import { buildTestApp, type TestApp } from './helpers/app';
import { randomIp } from './helpers/factories';
import { postRequest, requestBody, series, solvedChallenge } from './helpers/public';

// Real SMTP, PDFs and solved challenges on a two-core machine shared with other work: generous timeouts.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const encode = (p: object) => Buffer.from(JSON.stringify(p)).toString('base64');
const decode = (s: string) =>
  JSON.parse(Buffer.from(s, 'base64').toString()) as {
    number: number;
    signature: string;
    salt: string;
    challenge: string;
    algorithm: string;
  };
const missingSerial = () => `${series()}000001`;

function expectChallengeError(res: { statusCode: number; json(): { error: { fields?: { field: string; key: string }[] } } }, key: string) {
  expect(res.statusCode).toBe(400);
  expect(res.json().error.fields).toEqual([expect.objectContaining({ field: 'challenge', key })]);
}

describe('GET /api/v1/public/challenge', () => {
  it('gives a signed SHA-256 challenge that expires in a few minutes and is never cached', async () => {
    const res = await t.app.inject({ url: '/api/v1/public/challenge', remoteAddress: randomIp() });
    expect(res.statusCode).toBe(200);
    const c = res.json().data;
    expect(c).toMatchObject({ algorithm: 'SHA-256', maxnumber: 50_000 });
    expect(c.challenge).toMatch(/^[0-9a-f]{64}$/);
    expect(c.signature).toMatch(/^[0-9a-f]{64}$/);
    const expires = Number(new URLSearchParams(c.salt.split('?')[1]).get('expires')) * 1000;
    expect(expires - Date.now()).toBeGreaterThan(60_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(5 * 60_000);
    expect(res.headers['cache-control']).toMatch(/no-store/);
  });
});

describe('the challenge of a report request', () => {
  it('is required', async () => {
    const res = await postRequest(t.app, requestBody({ serial: missingSerial(), challenge: '' }));
    expectChallengeError(res, 'publicApi.challengeRequired');
    const absent = await t.app.inject({
      method: 'POST',
      url: '/api/v1/public/report-requests',
      payload: requestBody({ serial: missingSerial() }),
      remoteAddress: randomIp(),
    });
    expectChallengeError(absent, 'publicApi.challengeRequired');
    expect(absent.json().error.fields[0].message).toBe('Please complete the verification');
  });

  it('is refused when wrong: another number, a forged signature, another algorithm, or not a payload at all', async () => {
    const good = decode(await solvedChallenge(t.app));
    const wrong = [
      encode({ ...good, number: (good.number + 1) % 50_000 }),
      encode({ ...good, signature: 'f'.repeat(64) }),
      encode({ ...good, algorithm: 'SHA-1' }),
      encode({ ...good, salt: good.salt.replace(/expires=\d+/, 'expires=9999999999') }),
      'not base64 at all!',
      encode({ hello: 'world' }),
      encode([1, 2, 3]),
    ];
    for (const challenge of wrong) {
      expectChallengeError(await postRequest(t.app, requestBody({ serial: missingSerial(), challenge })), 'publicApi.challengeInvalid');
    }
    // The genuine one still works afterwards: the refusals did not use it up.
    expect((await postRequest(t.app, requestBody({ serial: missingSerial(), challenge: encode(good) }))).statusCode).toBe(200);
  });

  it('is refused when it has expired', async () => {
    const [key] = await t.app.ctx.db.select().from(powSecrets).where(eq(powSecrets.name, 'altcha-hmac-key'));
    const c = await createChallenge({ hmacKey: key!.value, maxnumber: 1000, expires: new Date(Date.now() - 1000) });
    const s = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
    const challenge = encode({ algorithm: c.algorithm, challenge: c.challenge, number: s!.number, salt: c.salt, signature: c.signature });
    const res = await postRequest(t.app, requestBody({ serial: missingSerial(), challenge }), { headers: { 'accept-language': 'zh' } });
    expectChallengeError(res, 'publicApi.challengeExpired');
    expect(res.json().error.fields[0].message).toBe('驗證已逾時，請再試一次');
  });

  it('is accepted once: a second use is refused', async () => {
    const challenge = await solvedChallenge(t.app);
    const first = await postRequest(t.app, requestBody({ serial: missingSerial(), challenge }));
    expect(first.statusCode).toBe(200);
    expectChallengeError(await postRequest(t.app, requestBody({ serial: missingSerial(), challenge })), 'publicApi.challengeUsed');
  });

  it('50 replays sent at once: exactly one is accepted, and only it is recorded', async () => {
    const challenge = await solvedChallenge(t.app);
    const serial = missingSerial();
    const results = await Promise.all(Array.from({ length: 50 }, () => postRequest(t.app, requestBody({ serial, challenge }))));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 400)).toHaveLength(49);
    expect(results.filter((r) => r.statusCode === 400).every((r) => r.json().error.fields[0].key === 'publicApi.challengeUsed')).toBe(true);
    expect(await t.app.ctx.db.select().from(searchRequests).where(eq(searchRequests.serial, serial))).toHaveLength(1);
  });

  it('made by one instance is accepted by another sharing the database, and still only once', async () => {
    const other: FastifyInstance = await buildApp({ config: t.config, database: t.testDb.database, logger: false });
    await other.ready();
    try {
      const challenge = await solvedChallenge(t.app);
      expect((await postRequest(other, requestBody({ serial: missingSerial(), challenge }))).statusCode).toBe(200);
      expectChallengeError(await postRequest(t.app, requestBody({ serial: missingSerial(), challenge })), 'publicApi.challengeUsed');
    } finally {
      await other.close();
    }
  });
});

describe('a request whose serials do not exist', () => {
  it('is recorded as not-found (address, language, terms version, IP, user agent) and sends no email', async () => {
    const serial = missingSerial();
    const ip = randomIp();
    const body = requestBody({ serials: [serial.toLowerCase()], language: 'zh' });
    const res = await postRequest(t.app, body, { ip });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ emailQueued: false, message: 'No test report could be sent for these serial numbers' });
    expect(data.results).toEqual([
      { serial, outcome: 'not-found', message: 'Serial Number Not Found', product: null, reportId: null, pdfPath: null },
    ]);
    const rows = await t.app.ctx.db.select().from(searchRequests).where(eq(searchRequests.groupId, data.requestId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      source: 'request',
      serial,
      recipientEmail: body.email,
      language: 'zh',
      status: 'not-found',
      clientIp: ip,
      userAgent: 'Mozilla/5.0 (test)',
      outboxId: null,
      reportId: null,
    });
    expect(rows[0]!.termsAgreedAt).toBeInstanceOf(Date);
    expect(typeof rows[0]!.termsVersion).toBe('number');
  });
});
