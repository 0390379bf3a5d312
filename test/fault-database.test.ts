/**
 * PostgreSQL restarted under load. The real server (a child process) runs on a PostgreSQL cluster of the
 * test's own (test/helpers/private-postgres.ts), which the test really stops and starts: the shared server
 * on 5432 serves both CI passes at once and is never touched. While the database is down, API requests are
 * answered 503 UNAVAILABLE with Retry-After (not 500, not hanging) and /readyz says unavailable; once it is
 * back, the same process serves again by itself, with no restart. PostgreSQL only (TEST_DATABASE_URL set).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { privatePostgresUnavailable, startPrivatePostgres, type PrivatePostgres } from './helpers/private-postgres';
import { request, startServer, type ServerProcess } from './helpers/server-process';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const why = privatePostgresUnavailable();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-fault-db-'));
let cluster: PrivatePostgres | undefined;
let server: ServerProcess | undefined;

afterAll(async () => {
  await server?.stop();
  cluster?.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  body: string;
  retryAfter?: string;
  ms: number;
}

it.runIf(onPostgres && !why)(
  'answers 503 while PostgreSQL is down and recovers by itself once it is back',
  async () => {
    cluster = await startPrivatePostgres();
    server = await startServer({ dataDir, databaseUrl: cluster.url });
    const s = server;
    const headers = { cookie: s.cookie, origin: s.url };
    const me = async (): Promise<Answer> => {
      const t0 = Date.now();
      const r = await request(`${s.url}/api/v1/auth/me`, { headers });
      return { status: r.status, body: r.body, retryAfter: r.headers['retry-after'] as string | undefined, ms: Date.now() - t0 };
    };
    expect((await me()).status).toBe(200);

    // Load: four clients asking one after another for as long as the test runs.
    const answers: Answer[] = [];
    let loading = true;
    const clients = Array.from({ length: 4 }, async () => {
      while (loading) answers.push(await me());
    });
    await new Promise((r) => setTimeout(r, 500));

    cluster.stop();
    const downFrom = answers.length;
    // What the server answers with its database gone.
    const whileDown: Answer[] = [];
    for (let i = 0; i < 10; i++) whileDown.push(await me());
    const ready = await request(`${s.url}/readyz`, {});
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.body).status).toBe('unavailable');
    const login = await request(`${s.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: s.url },
      body: JSON.stringify({ email: 'admin@example.com', password: 'whatever-it-is-1' }),
    });

    cluster.start();
    const backAt = Date.now();
    let recoveredAfterMs = -1;
    while (Date.now() - backAt < 30_000) {
      const r = await request(`${s.url}/readyz`, {});
      if (r.status === 200 && (await me()).status === 200) {
        recoveredAfterMs = Date.now() - backAt;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    loading = false;
    await Promise.all(clients);
    console.log(
      `database down: ${whileDown.length} requests answered in ${Math.max(...whileDown.map((a) => a.ms))} ms at most; recovered ${recoveredAfterMs} ms after PostgreSQL was back`,
    );

    for (const a of whileDown) {
      expect(a.status).toBe(503);
      expect(JSON.parse(a.body).error).toMatchObject({ status: 'UNAVAILABLE', key: 'errors.unavailable' });
      expect(a.retryAfter).toBe('5');
    }
    // Failing fast: an answer, not a request held until a client gives up (the pool's connect timeout is 5 s).
    expect(Math.max(...whileDown.map((a) => a.ms))).toBeLessThan(5_000);
    expect(login.status).toBe(503);
    // Under load, every answer was a success or a 503: never a 500, never a dropped connection.
    const statuses = new Set(answers.slice(downFrom).map((a) => a.status));
    expect([...statuses].every((x) => x === 200 || x === 503)).toBe(true);
    expect(statuses.has(503)).toBe(true);
    // Back by itself within 5 s of PostgreSQL accepting connections again, in the same process.
    expect(recoveredAfterMs).toBeGreaterThanOrEqual(0);
    expect(recoveredAfterMs).toBeLessThanOrEqual(5_000);
    expect(s.child.exitCode).toBeNull();
    expect(s.output()).toMatch(/service unavailable: database or storage/);
  },
  240_000,
);

it.runIf(onPostgres && why)('cannot run a private PostgreSQL cluster here', () => {
  console.warn(`fault-database: skipped, ${why}`);
});
