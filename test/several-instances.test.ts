/**
 * Several instances behave as one: two real server processes on different ports, each with a
 * DATA_DIR of its own, on ONE PostgreSQL database and ONE Redis (REDIS_URL). Started at the same moment on an
 * empty database, so that both run the migrations at once. Then: a session made on one works on the other;
 * every rate limit (failed sign-ins, public lookup, report requests, bench keys) counts across both; each
 * outbox message is sent exactly once although both workers poll; a report issued on one is served by the
 * other (stored in the database, not in a local folder).
 * Needs TEST_DATABASE_URL and TEST_REDIS_URL (CI sets both on its PostgreSQL pass).
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, rowsOf, type Database } from '../src/server/db/client';
import { enqueueMail } from '../src/server/mail/outbox';
import { addProduct, postRange, rangeBody } from './helpers/catalogue';
import { createEmptyPostgresDatabase } from './helpers/database';
import { randomIp } from './helpers/factories';
import { httpApp } from './helpers/http-app';
import { createBench, postBatch, record } from './helpers/machine-data';
import { solvedChallengeFast } from './helpers/pow';
import { postRequest, requestBody, series } from './helpers/public';
import { request, startServer, type ServerProcess } from './helpers/server-process';
import { startSmtpSink, type SmtpSink } from './helpers/smtp-sink';

const serverUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const migrationsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/server/db/migrations');

describe.runIf(serverUrl && redisUrl)('two instances on one PostgreSQL and one Redis', () => {
  const dirs = [0, 1].map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'trc-multi-')));
  let scratch: { url: string; drop(): Promise<void> };
  let sink: SmtpSink;
  let a: ServerProcess;
  let b: ServerProcess;
  let database: Database;

  beforeAll(async () => {
    scratch = await createEmptyPostgresDatabase(serverUrl!, 'trc_multi');
    sink = await startSmtpSink();
    const env = { REDIS_URL: redisUrl!, SMTP_URL: sink.url, TRUST_PROXY: '127.0.0.1' };
    // Both at once on an empty database: the migrations run under an advisory lock (db/migrate.ts).
    const started = await Promise.all(dirs.map((dataDir) => startServer({ dataDir, databaseUrl: scratch.url, env })));
    [a, b] = [started[0]!, started[1]!];
    database = await openDatabase({ url: scratch.url, maxConnections: 2 });
  }, 300_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.close();
    await sink?.close();
    await scratch?.drop();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('runs on different ports and both applied the migrations once, together', async () => {
    expect(a.url).not.toBe(b.url);
    const files = fs.readdirSync(migrationsDir).filter((f) => f.endsWith('.sql'));
    const rows = rowsOf<{ n: number; distinct: number }>(
      await database.db.execute(sql`SELECT count(*)::int AS n, count(DISTINCT name)::int AS distinct FROM schema_migrations`),
    );
    expect(rows[0]).toEqual({ n: files.length, distinct: files.length });
    for (const s of [a, b]) expect(JSON.parse((await request(`${s.url}/readyz`, {})).body).status).toBe('ok');
  });

  it('a session made on one instance works on the other, and signing out on one ends it on both', async () => {
    const me = (s: ServerProcess, cookie: string) => request(`${s.url}/api/v1/auth/me`, { headers: { cookie } });
    const login = await request(`${b.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: b.url },
      body: JSON.stringify({ email: 'admin@example.com', password: 'Correct-Horse-Battery-9-Staple!' }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers['set-cookie']![0]!.split(';')[0]!;
    expect((await me(a, cookie)).status).toBe(200);
    expect((await me(b, a.cookie)).status).toBe(200);
    const out = await request(`${a.url}/api/v1/auth/logout`, { method: 'POST', headers: { cookie, origin: a.url } });
    expect(out.status).toBeLessThan(300);
    expect((await me(b, cookie)).status).toBe(401);
  });

  /** Statuses of `n` requests sent alternately to a and b, one after another. */
  async function alternate(n: number, send: (s: ServerProcess, i: number) => Promise<number>): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < n; i++) statuses.push(await send(i % 2 === 0 ? a : b, i));
    return statuses;
  }
  const admitted = (statuses: number[]) => statuses.filter((s) => s !== 429).length;

  it('failed sign-ins count across instances (10 per account and address)', async () => {
    const ip = randomIp();
    const email = `nobody-${randomBytes(4).toString('hex')}@example.com`;
    const statuses = await alternate(14, async (s) => {
      const r = await request(`${s.url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: s.url, 'x-forwarded-for': ip },
        body: JSON.stringify({ email, password: 'Wrong-Password-123' }),
      });
      return r.status;
    });
    expect(admitted(statuses)).toBe(10);
    expect(statuses.slice(10).every((s) => s === 429)).toBe(true);
  });

  it('public lookups per address count across instances (60 a minute)', async () => {
    const ip = randomIp();
    const prefix = series();
    const statuses = await alternate(64, async (s, i) => {
      const r = await httpApp(s.url).inject({
        method: 'POST',
        url: '/api/v1/public/lookup',
        payload: { serial: `${prefix}${String(i + 1).padStart(6, '0')}` },
        remoteAddress: ip,
      });
      return r.statusCode;
    });
    expect(admitted(statuses)).toBe(60);
    expect(statuses.slice(60).every((s) => s === 429)).toBe(true);
  });

  it('report requests per address count across instances (10 in 15 minutes)', async () => {
    const ip = randomIp();
    const prefix = series();
    const statuses = await alternate(12, async (s, i) => {
      const app = httpApp(s.url);
      const body = requestBody({ serial: `${prefix}${String(i + 1).padStart(6, '0')}`, challenge: await solvedChallengeFast(app) });
      const r = await postRequest(app, body, { ip });
      return r.statusCode;
    });
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it('a bench key is limited across instances (600 batches a minute)', async () => {
    const bench = await createBench(httpApp(a.url), a.cookie);
    const statuses: number[] = [];
    // Ten at a time, spread over both instances; empty batches, since the limit is counted before the body.
    for (let i = 0; i < 610; i += 10) {
      statuses.push(
        ...(await Promise.all(
          Array.from({ length: 10 }, (_, j) =>
            postBatch(httpApp((i + j) % 2 ? b.url : a.url), bench.key, { records: [] }).then((r) => r.statusCode),
          ),
        )),
      );
    }
    expect(admitted(statuses)).toBe(600);
  });

  it('each outbox message is sent exactly once although both workers poll', async () => {
    const before = sink.messages.length;
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) {
      ids.push(
        await enqueueMail(database.db, {
          kind: 'several-instances-test',
          to: `r${i}@example.com`,
          language: 'en',
          subject: `Message ${i}`,
          text: `Body ${i}`,
        }),
      );
    }
    await sink.waitFor(before + 40, 60_000);
    // Longer than a poll interval of both workers: a second copy would have come by now.
    await new Promise((r) => setTimeout(r, 4_000));
    const received = sink.messages.slice(before).map((m) => m.parsed!.messageId);
    expect(received).toHaveLength(40);
    expect(new Set(received).size).toBe(40);
    const rows = rowsOf<{ status: string; attempts: number }>(
      await database.db.execute(sql`SELECT status, attempts FROM mail_outbox WHERE kind = 'several-instances-test'`),
    );
    expect(rows).toHaveLength(40);
    expect(rows.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
  });

  it('a report issued on one instance is served by the other (stored in the database)', async () => {
    const appA = httpApp(a.url);
    const appB = httpApp(b.url);
    const product = await addProduct(appA, a.cookie);
    const prefix = series();
    const serial = `${prefix}000001`;
    const range = await postRange(appA, a.cookie, rangeBody(product.id, serial, `${prefix}000010`, 10));
    expect(range.statusCode).toBe(201);
    const bench = await createBench(appA, a.cookie);
    // Records through the other instance with the key made on the first.
    const batch = await postBatch(appB, bench.key, {
      records: [record({ serial, testType: 'shell' }), record({ serial, testType: 'seat', testPressure: 1.76, medium: 'air' })],
    });
    expect(batch.statusCode).toBeLessThan(300);
    const res = await postRequest(appA, requestBody({ serial, challenge: await solvedChallengeFast(appA) }));
    expect(res.statusCode).toBe(200);
    const result = res.json().data.results[0];
    expect(result.outcome).toBe('issued');
    const fromA = await appA.inject({ url: result.pdfPath });
    const fromB = await appB.inject({ url: result.pdfPath });
    expect(fromB.statusCode).toBe(200);
    expect(fromB.headers['content-type']).toContain('application/pdf');
    const sha = (x: Buffer) => createHash('sha256').update(x).digest('hex');
    expect(sha(fromB.rawPayload)).toBe(sha(fromA.rawPayload));
    // Neither DATA_DIR holds a copy: the bytes came from PostgreSQL.
    const files = dirs.flatMap((d) => fs.readdirSync(d, { recursive: true }).map(String));
    expect(files.filter((f) => f.endsWith('.pdf'))).toEqual([]);
  });
});
