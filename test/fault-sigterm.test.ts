/**
 * SIGTERM (a service stop, a container stop, a rolling update): the real server on the embedded database
 * (PGlite under DATA_DIR, no SMTP_URL so mail goes to .eml files) gets SIGTERM while a machine-data CSV
 * upload is on its way and an email is queued. The upload is answered and stored in full; the outbox
 * worker stops with nothing left half-sent; the process exits 0; PGlite was closed cleanly (its control file
 * says "shut down", so the next start needs no crash recovery) and the same DATA_DIR opens with the data.
 * PGlite only: on PostgreSQL the database server is not this process's to close.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { openDatabase, rowsOf } from '../src/server/db/client';
import { writeMachineCsv } from './helpers/machine-data-csv';
import { request, startServer, uploadFile, type ServerProcess } from './helpers/server-process';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-sigterm-'));
const file = path.join(dataDir, 'records.csv');
let server: ServerProcess | undefined;

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** PostgreSQL's cluster state in global/pg_control (DBState at byte 16): 1 shut down, 6 in production. */
function clusterState(): number {
  return fs.readFileSync(path.join(dataDir, 'pglite', 'global', 'pg_control')).readInt32LE(16);
}
const DB_SHUTDOWNED = 1;

it.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
  'finishes the request in flight, stops the worker and closes the embedded database on SIGTERM',
  async () => {
    const rows = 20_000;
    const size = await writeMachineCsv(file, rows, 11);
    server = await startServer({ dataDir, env: { LOG_LEVEL: 'info' } });
    const s = server;
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      s.child.once('exit', (code, signal) => resolve({ code, signal })),
    );

    // An email queued just before the signal (a password reset for the administrator).
    const forgot = await request(`${s.url}/api/v1/auth/forgot-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: s.url },
      body: JSON.stringify({ email: 'admin@example.com' }),
    });
    expect(forgot.status).toBeLessThan(300);

    let signalledAt = 0;
    const upload = uploadFile(`${s.url}/api/v1/machine-data/import`, s.cookie, file, (sent) => {
      if (signalledAt === 0 && sent >= size * 0.5) {
        signalledAt = sent;
        s.child.kill('SIGTERM');
      }
    });
    const res = await upload;
    const exit = await exited;
    server = undefined;

    expect(signalledAt).toBeGreaterThan(0);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).data).toMatchObject({ rows, stored: rows, valid: true });
    expect(exit).toEqual({ code: 0, signal: null });
    expect(s.output()).toMatch(/shutting down/);
    expect(clusterState()).toBe(DB_SHUTDOWNED);

    // Nothing half-sent: every message is sent (its .eml file whole, no partial file left) or still queued.
    const outboxDir = path.join(dataDir, 'outbox');
    const files = fs.existsSync(outboxDir) ? fs.readdirSync(outboxDir) : [];
    expect(files.filter((f) => f.endsWith('.partial'))).toEqual([]);

    const database = await openDatabase({ dataDir });
    try {
      const [counts] = rowsOf<{ records: number; imports: number; sending: number; sent: number; total: number }>(
        await database.db.execute(sql`SELECT (SELECT count(*)::int FROM test_records) AS records,
        (SELECT count(*)::int FROM audit_log WHERE entity = 'test-record' AND action = 'import') AS imports,
        (SELECT count(*)::int FROM mail_outbox WHERE status = 'sending') AS sending,
        (SELECT count(*)::int FROM mail_outbox WHERE status = 'sent') AS sent,
        (SELECT count(*)::int FROM mail_outbox) AS total`),
      );
      expect(counts).toMatchObject({ records: rows, imports: 1, sending: 0 });
      expect(counts!.total).toBeGreaterThanOrEqual(1);
      expect(files.filter((f) => f.endsWith('.eml'))).toHaveLength(counts!.sent);
    } finally {
      await database.close();
    }

    // And the server starts again on the same folder and serves what was stored.
    server = await startServer({ dataDir });
    const list = await request(`${server.url}/api/v1/machine-data`, { headers: { cookie: server.cookie } });
    expect(list.status).toBe(200);
    await server.stop();
    server = undefined;
    expect(clusterState()).toBe(DB_SHUTDOWNED);
  },
  300_000,
);
