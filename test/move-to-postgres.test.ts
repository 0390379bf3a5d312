/**
 * npm run move-to-postgres: the embedded database into an empty PostgreSQL database (a scratch database
 * created on the TEST_DATABASE_URL server). Every table copied with the same row count, sequences carried
 * over, a non-empty target refused, and the app on the target serves the data. Skips without
 * TEST_DATABASE_URL.
 */
import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, rowsOf } from '../src/server/db/client';
import { holdDataDir, tableCounts } from '../src/server/ops/embedded';
import { moveToPostgres, orderByForeignKeys } from '../src/server/ops/move-to-postgres';
import { createEmptyPostgresDatabase } from './helpers/database';
import { staffCookie } from './helpers/catalogue';
import { appOn, seedEmbedded, tmpDataDir } from './helpers/embedded-data';

const serverUrl = process.env.TEST_DATABASE_URL;

describe('orderByForeignKeys', () => {
  it('puts referenced tables first and ignores self references', () => {
    const { order, cycles } = orderByForeignKeys(
      ['c', 'b', 'a', 'd'],
      [
        { child: 'c', parent: 'b' },
        { child: 'b', parent: 'a' },
        { child: 'a', parent: 'a' },
        { child: 'd', parent: 'c' },
      ],
    );
    expect(order).toEqual(['a', 'b', 'c', 'd']);
    expect(cycles).toEqual([]);
  });

  it('sets apart the key that closes a cycle, so that the rest keeps its order', () => {
    const { order, cycles } = orderByForeignKeys(
      ['reports', 'delivery_units', 'deliveries'],
      [
        { child: 'delivery_units', parent: 'deliveries', name: 'du_d' },
        { child: 'reports', parent: 'delivery_units', name: 'r_du' },
        { child: 'delivery_units', parent: 'reports', name: 'du_r' },
      ],
    );
    expect(order).toEqual(['deliveries', 'reports', 'delivery_units']);
    expect(cycles).toEqual([{ child: 'reports', parent: 'delivery_units', name: 'r_du' }]);
  });
});

describe.runIf(serverUrl)('move-to-postgres (TEST_DATABASE_URL)', () => {
  let dataDir: string;
  let serial: string;
  const drops: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    dataDir = tmpDataDir();
    ({ serial } = await seedEmbedded(dataDir));
  }, 120_000);
  afterAll(async () => {
    for (const d of drops) await d();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('copies every table with the same row counts; the app on PostgreSQL serves the data; sequences continue after the copied rows', async () => {
    const target = await createEmptyPostgresDatabase(serverUrl!, 'trc_move');
    drops.push(target.drop);
    const lines: string[] = [];
    const r = await moveToPostgres(dataDir, target.url, (l) => lines.push(l));
    expect(r.tables.reports).toBe(2);
    expect(r.tables.delivery_units).toBe(1);
    expect(r.tables.users).toBeGreaterThan(0);
    expect(lines.length).toBe(Object.keys(r.tables).length - 1); // schema_migrations comes from the migrations

    const database = await openDatabase({ url: target.url });
    const { t, close } = await appOn(database, dataDir);
    try {
      const counts = await tableCounts(async (text) => rowsOf<Record<string, unknown>>(await database.db.execute(sql.raw(text))));
      expect(counts).toEqual(r.tables);
      const ready = await t.app.inject({ url: '/readyz', headers: { cookie: await staffCookie(t) } });
      expect(ready.json().components.database).toEqual({ status: 'ok', kind: 'postgres' });
      const [report] = rowsOf<{ ok: boolean }>(
        await database.db.execute(sql`select sha256 = sha256(bytes) as ok from reports where serial = ${serial}`),
      );
      expect(report?.ok).toBe(true);
      // Sequences carried over: a new row's id comes after the copied ones.
      const [max] = rowsOf<{ m: string }>(await database.db.execute(sql`select max(id)::text as m from catalogue_changes`));
      const [next] = rowsOf<{ id: string }>(
        await database.db.execute(sql`insert into catalogue_changes default values returning id::text as id`),
      );
      expect(BigInt(next!.id)).toBeGreaterThan(BigInt(max!.m));
      // The key that closes the cycle between a delivery's unit and its certificate is back, and holds.
      const [unit] = rowsOf<{ ok: boolean }>(
        await database.db.execute(sql`select r.delivery_unit_id = u.id as ok from delivery_units u join reports r on r.id = u.report_id`),
      );
      expect(unit?.ok).toBe(true);
      const keys = rowsOf<{ n: number }>(
        await database.db.execute(
          sql`select count(*)::int as n from pg_constraint where contype = 'f'
                and ((conrelid, confrelid) = ('reports'::regclass, 'delivery_units'::regclass)
                  or (conrelid, confrelid) = ('delivery_units'::regclass, 'reports'::regclass))`,
        ),
      );
      expect(keys[0]?.n).toBe(2);
      // The benches came over.
      const [key] = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from machines`));
      expect(key?.n).toBeGreaterThan(0);
    } finally {
      await close();
      await database.close();
    }
  });

  it('refuses a target that is not empty, and a DATA_DIR a server holds', async () => {
    const target = await createEmptyPostgresDatabase(serverUrl!, 'trc_move');
    drops.push(target.drop);
    const c = new pg.Client({ connectionString: target.url });
    await c.connect();
    await c.query('CREATE TABLE something (x int)');
    await c.end();
    await expect(moveToPostgres(dataDir, target.url)).rejects.toThrow(/not empty/);

    const empty = await createEmptyPostgresDatabase(serverUrl!, 'trc_move');
    drops.push(empty.drop);
    const release = holdDataDir(dataDir);
    try {
      await expect(moveToPostgres(dataDir, empty.url)).rejects.toThrow(/is running/);
    } finally {
      release();
    }
  });
});
