/**
 * A CSV import that takes longer than the connection deadlines still answers: its file is spooled as it
 * arrives, so the request is complete before the import starts (REQUEST_TIMEOUT_MS counts until then), and
 * the idle deadline is lifted while the import's transaction runs (lib/http-files.ts). Read while importing,
 * as before, a file of this size kept the request incomplete past the deadline and was answered 408.
 */
import fs from 'node:fs';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/server/db/client';
import { buildTestApp, type TestApp } from './helpers/app';
import { staffCookie } from './helpers/catalogue';
import { writeMachineCsv } from './helpers/machine-data-csv';
import { uploadFile } from './helpers/server-process';

let t: TestApp;
let url: string;
let dir: string;

beforeAll(async () => {
  t = await buildTestApp({ HEADERS_TIMEOUT_MS: '300', REQUEST_TIMEOUT_MS: '600', IDLE_TIMEOUT_MS: '600' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as net.AddressInfo).port}`;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-import-deadlines-'));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a long import and the connection deadlines', () => {
  it('is answered, stored whole, and leaves no spooled file', async () => {
    const rows = 25_000;
    const file = path.join(dir, 'records.csv');
    const size = await writeMachineCsv(file, rows, 11);
    expect(size).toBeGreaterThan(2 * 2 ** 20);
    const started = performance.now();
    const res = await uploadFile(`${url}/api/v1/machine-data/import`, await staffCookie(t, { role: 'admin' }), file);
    const took = performance.now() - started;
    expect(res.status, res.body.slice(0, 300)).toBe(200);
    expect(JSON.parse(res.body).data.stored).toBe(rows);
    const [stored] = rowsOf<{ n: number }>(await t.app.ctx.db.execute(sql`SELECT count(*)::int AS n FROM test_records`));
    expect(stored?.n).toBe(rows);
    // The import outlasted both deadlines (what the test is about), and its spooled file is gone.
    expect(took).toBeGreaterThan(600);
    expect(fs.readdirSync(path.join(t.config.dataDir, 'spool'))).toEqual([]);
  }, 120_000);
});
