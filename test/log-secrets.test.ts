/**
 * The server's log of a realistic run holds no secret. The real server process (JSON log at debug level,
 * every request logged) goes through: sign-in, a password reset (request, token from the mail over SMTP, new
 * password), a bench created and posting records with its key, a public report request, requests carrying
 * the session cookie. Then none of the passwords, session ids, reset token, bench key, or the Cookie and
 * Authorization header values appears anywhere in the log, and each request line carries a request id.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addProduct, postRange, rangeBody } from './helpers/catalogue';
import { httpApp } from './helpers/http-app';
import { createBench, postBatch, record } from './helpers/machine-data';
import { postRequest, requestBody, series } from './helpers/public';
import { request, startServer, type ServerProcess } from './helpers/server-process';
import { startSmtpSink, type SmtpSink } from './helpers/smtp-sink';

const ADMIN_EMAIL = 'admin@example.com';
const ADMIN_PASSWORD = 'Correct-Horse-Battery-9-Staple!';
const NEW_PASSWORD = 'Brand-New-Valve-Seat-7-Log';

let s: ServerProcess;
let sink: SmtpSink;
let dataDir: string;
const secrets: Record<string, string> = {};

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-logsecrets-'));
  sink = await startSmtpSink({ parse: true });
  s = await startServer({ dataDir, env: { LOG_LEVEL: 'debug', TRUST_PROXY: '127.0.0.1', SMTP_URL: sink.url } });
}, 300_000);
afterAll(async () => {
  await s?.stop();
  await sink?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const json = (body: unknown) => ({ 'content-type': 'application/json', origin: s.url, body: JSON.stringify(body) });

describe('the server log of a realistic run', () => {
  it('carries request ids and none of the passwords, session ids, reset token, bench key, Cookie or Authorization values', async () => {
    secrets.adminPassword = ADMIN_PASSWORD;
    secrets.registerCookie = s.cookie.split('=')[1]!;
    const post = (url: string, body: unknown, headers: Record<string, string> = {}) => {
      const { body: b, ...h } = json(body);
      return request(`${s.url}${url}`, { method: 'POST', headers: { ...h, ...headers }, body: b });
    };

    // A wrong and a right sign-in.
    expect((await post('/api/v1/auth/login', { email: ADMIN_EMAIL, password: `${ADMIN_PASSWORD}x` })).status).toBe(401);
    secrets.wrongPassword = `${ADMIN_PASSWORD}x`;
    const login = await post('/api/v1/auth/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    expect(login.status).toBe(200);
    const cookie = String(login.headers['set-cookie']?.[0]).split(';')[0]!;
    secrets.session = cookie.split('=')[1]!;
    expect((await request(`${s.url}/api/v1/auth/me`, { headers: { cookie } })).status).toBe(200);

    // Password reset: the token comes in the mail (written under DATA_DIR/outbox without SMTP_URL).
    expect((await post('/api/v1/auth/forgot-password', { email: ADMIN_EMAIL })).status).toBe(200);
    const [mail] = await sink.waitFor(1);
    const token = decodeURIComponent(/#token=([\w%.~-]+)/.exec(mail!.parsed!.text ?? '')?.[1] ?? '');
    expect(token.length).toBeGreaterThan(20);
    secrets.resetToken = token;
    expect((await post('/api/v1/auth/reset-password', { token, password: NEW_PASSWORD })).status).toBe(200);
    secrets.newPassword = NEW_PASSWORD;
    const again = await post('/api/v1/auth/login', { email: ADMIN_EMAIL, password: NEW_PASSWORD });
    expect(again.status).toBe(200);
    const cookie2 = String(again.headers['set-cookie']?.[0]).split(';')[0]!;
    secrets.session2 = cookie2.split('=')[1]!;

    // A bench with its key posting records; a product, a range and a public report request for that unit.
    const app = httpApp(s.url);
    const product = await addProduct(app, cookie2);
    const prefix = series();
    const serial = `${prefix}000001`;
    expect((await postRange(app, cookie2, rangeBody(product.id, serial, `${prefix}000010`, 10))).statusCode).toBe(201);
    const bench = await createBench(app, cookie2);
    secrets.benchKey = bench.key;
    const batch = await postBatch(app, bench.key, {
      records: [record({ serial, testType: 'shell' }), record({ serial, testType: 'seat', testPressure: 1.76, medium: 'air' })],
    });
    expect(batch.statusCode).toBe(200);
    expect((await postBatch(app, `${bench.key.slice(0, -2)}zz`, { records: [record({ serial })] })).statusCode).toBe(401);
    secrets.wrongBenchKey = `${bench.key.slice(0, -2)}zz`;
    const publicRequest = await postRequest(app, requestBody({ serial }));
    expect(publicRequest.statusCode).toBeLessThan(300);
    // A reset link opened with the token in the query string (an old link form): the log drops queries.
    await request(`${s.url}/reset-password?token=${encodeURIComponent(token)}`, { headers: { cookie: cookie2 } });
    expect((await post('/api/v1/auth/logout', {}, { cookie: cookie2 })).status).toBeLessThan(300);

    await new Promise((r) => setTimeout(r, 500));
    const log = s.output();
    const lines = log.split('\n').filter((l) => l.startsWith('{'));
    expect(lines.length).toBeGreaterThan(20);
    for (const [name, value] of Object.entries(secrets)) {
      expect(value.length, name).toBeGreaterThan(8);
      expect(log.includes(value), `${name} appears in the log`).toBe(false);
      expect(log.includes(encodeURIComponent(value)), `${name} (URL-encoded) appears in the log`).toBe(false);
    }
    expect(log).not.toMatch(/trc_live_[A-Za-z0-9]/);
    expect(log).not.toMatch(/"(cookie|authorization|set-cookie)"\s*:/i);
    // Every request line carries its request id.
    const requestLines = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((o) => o.req || o.res);
    expect(requestLines.length).toBeGreaterThan(20);
    for (const o of requestLines) expect(o.reqId, JSON.stringify(o)).toMatch(/^[0-9a-f-]{36}$/);
  });
});
