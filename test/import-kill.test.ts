/**
 * A server killed with SIGKILL in the middle of a large machine-data CSV import leaves nothing of that
 * import stored: the whole import is one transaction, and a transaction that never committed is gone when
 * the database is opened again (PGlite under DATA_DIR, or PostgreSQL with TEST_DATABASE_URL).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { openDatabase, rowsOf } from '../src/server/db/client';
import { createEmptyPostgresDatabase } from './helpers/database';
import { writeMachineCsv } from './helpers/machine-data-csv';
import { startServer, uploadFile, type ServerProcess } from './helpers/server-process';

const serverUrl = process.env.TEST_DATABASE_URL;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-kill-'));
const file = path.join(dataDir, 'records.csv');
let scratch: { url: string; drop(): Promise<void> } | undefined;
let server: ServerProcess | undefined;

afterAll(async () => {
  await server?.stop();
  await scratch?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Counts in the database the server used, opened by this process once the server is gone. */
async function counts(): Promise<{ records: number; imports: number }> {
  const database = await openDatabase(scratch ? { url: scratch.url, maxConnections: 1 } : { dataDir });
  try {
    const [r] = rowsOf<{ records: number; imports: number }>(
      await database.db.execute(sql`SELECT (SELECT count(*)::int FROM test_records) AS records,
        (SELECT count(*)::int FROM audit_log WHERE entity = 'test-record' AND action = 'import') AS imports`),
    );
    return r!;
  } finally {
    await database.close();
  }
}

/** On PostgreSQL: whether a backend of the scratch database is inside a transaction (the import's). */
async function transactionOpen(): Promise<boolean> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const res = await client.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND xact_start IS NOT NULL AND pid <> pg_backend_pid()`, [new URL(scratch!.url).pathname.slice(1)]);
    return res.rows[0].n > 0;
  } finally {
    await client.end();
  }
}

it('keeps nothing of an import whose server was killed mid-way', async () => {
  if (serverUrl) scratch = await createEmptyPostgresDatabase(serverUrl, 'trc_kill');
  const rows = serverUrl ? 400_000 : 150_000;
  const size = await writeMachineCsv(file, rows, 7);
  server = await startServer({ dataDir, databaseUrl: scratch?.url });
  const s = server;

  let answered = false;
  let killedAt = 0;
  let inTransaction: boolean | null = null;
  const killed = new Promise<void>((resolve) => s.child.once('exit', () => resolve()));
  const upload = uploadFile(`${s.url}/api/v1/machine-data/import`, s.cookie, file, (sent) => {
    if (killedAt === 0 && sent >= size * 0.6) {
      killedAt = sent;
      void (async () => {
        if (serverUrl) inTransaction = await transactionOpen();
        s.child.kill('SIGKILL');
      })();
    }
  })
    .then(() => (answered = true))
    .catch(() => undefined); // the connection dies with the server
  await killed;
  await upload;
  expect(answered).toBe(false);
  expect(killedAt).toBeGreaterThan(0);
  if (serverUrl) expect(inTransaction).toBe(true);
  expect(await counts()).toEqual({ records: 0, imports: 0 });

  // The database is whole: the server starts on it again and a small import is stored.
  server = await startServer({ dataDir, databaseUrl: scratch?.url });
  const small = path.join(dataDir, 'small.csv');
  await writeMachineCsv(small, 50, 8);
  const res = await uploadFile(`${server.url}/api/v1/machine-data/import`, server.cookie, small);
  expect(res.status).toBe(200);
  expect(JSON.parse(res.body).data).toMatchObject({ rows: 50, stored: 50, valid: true });
  await server.stop();
  server = undefined;
  expect(await counts()).toEqual({ records: 50, imports: 1 });
}, 900_000);
