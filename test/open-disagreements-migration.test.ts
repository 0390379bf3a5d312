/**
 * Migration 0050 on a database that already holds records (PGlite, and PostgreSQL when TEST_DATABASE_URL is
 * set): the open disagreements it keeps are those the dashboard counted over every record before it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, rowsOf, type Database } from '../src/server/db/client';
import { listMigrations, migrate } from '../src/server/db/migrate';
import { disagreements, OPEN_DISAGREEMENTS_LOCK } from '../src/server/modules/dashboard/dashboard.repo';
import { createEmptyPostgresDatabase } from './helpers/database';

const MIGRATION = '0050_open_disagreements.sql';

let database: Database;
let drop = async () => {};
let before: string;

beforeAll(async () => {
  if (process.env.TEST_DATABASE_URL) {
    const fresh = await createEmptyPostgresDatabase(process.env.TEST_DATABASE_URL, 'trc_mig50');
    database = await openDatabase({ url: fresh.url });
    drop = fresh.drop;
  } else database = await openDatabase({});
  // The migrations as they were before 0050, in a folder of their own.
  before = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-migrations-'));
  for (const m of listMigrations()) if (m.name < MIGRATION) fs.writeFileSync(path.join(before, m.name), m.sql);
});
afterAll(async () => {
  await database.close();
  await drop();
  fs.rmSync(before, { recursive: true, force: true });
});

describe('migration 0050 (open disagreements)', () => {
  it('keeps the stored disagreements that no later test of their type closed', async () => {
    await migrate(database, before);
    // (serial, number, test type, hour, verdict) — the bench passed every one.
    const records: [string, number, string, number, string][] = [
      ['MG-0001', 1, 'shell', 8, 'nonconforming'], // closed by the retest below
      ['MG-0001', 1, 'shell', 9, 'conforms'],
      ['MG-0002', 2, 'seat', 8, 'nonconforming'], // open
      ['MG-0003', 3, 'shell', 8, 'nonconforming'], // open: the later test is of another type
      ['MG-0003', 3, 'seat', 9, 'conforms'],
      ['MG-0004', 4, 'shell', 8, 'conforms'],
    ];
    for (const [serial, no, type, hour, verdict] of records)
      await database.db.execute(sql`INSERT INTO test_records (record_id, serial, prefix, width, serial_no, test_type, medium, test_pressure,
          holding_seconds, result, verdict, reasons, tested_at, content_hash)
        VALUES (${`${serial}-${type}-${hour}`}, ${serial}, 'MG-', 4, ${no}, ${type}, 'water', 2.4, 60, 'pass', ${verdict},
          ${verdict === 'nonconforming' ? 1 : 0}, ${`2024-06-03T0${hour}:00:00.000Z`}, decode(repeat('00', 32), 'hex'))`);

    // 0050 first, then whatever came after it.
    expect((await migrate(database))[0]).toBe(MIGRATION);
    const kept = rowsOf<{ serial: string; test_type: string }>(
      await database.db.execute(
        sql`SELECT r.serial, r.test_type FROM open_disagreements o JOIN test_records r ON r.id = o.record_id ORDER BY r.serial`,
      ),
    );
    expect(kept).toEqual([
      { serial: 'MG-0002', test_type: 'seat' },
      { serial: 'MG-0003', test_type: 'shell' },
    ]);
    expect(await disagreements(database.db)).toBe(2);

    // A record stored after the migration is kept by the trigger.
    await database.db.execute(sql`INSERT INTO test_records (record_id, serial, prefix, width, serial_no, test_type, medium, test_pressure,
        holding_seconds, result, verdict, reasons, tested_at, content_hash)
      VALUES ('MG-0004-seat', 'MG-0004', 'MG-', 4, 4, 'seat', 'water', 1.76, 60, 'pass', 'nonconforming', 1,
        '2024-06-03T10:00:00.000Z', decode(repeat('00', 32), 'hex'))`);
    expect(await disagreements(database.db)).toBe(3);
  });

  it("shares its advisory lock with the pruning: the trigger's writers name the pruning's number", () => {
    const text = listMigrations().find((m) => m.name === MIGRATION)!.sql;
    expect(text).toContain(`pg_advisory_xact_lock_shared(${OPEN_DISAGREEMENTS_LOCK})`);
  });
});
