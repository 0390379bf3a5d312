/**
 * runImport's `loadRows` (src/server/lib/csv-import.ts): several COPY chunks are staged before one `load`
 * moves them, the last load takes what is left, and every row arrives once, in file order; a bad row still
 * refuses the whole file. On PGlite and on PostgreSQL (TEST_DATABASE_URL).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf, type Tx } from '../src/server/db/client';
import { runImport, STAGE } from '../src/server/lib/csv-import';
import { createTestDatabase, type TestDatabase } from './helpers/database';

let d: TestDatabase;

beforeAll(async () => {
  d = await createTestDatabase();
  await d.database.db.execute(sql`CREATE TABLE load_rows_sink (row integer, name text)`);
});
afterAll(async () => {
  await d.drop();
});

type Row = { name: string };

/** `seen`, when given: how many rows the import had read, beyond those already in the sink, at each load. */
async function importNames(names: string[], loads: number[], opts: { seen?: number[]; failAt?: number } = {}) {
  let read = 0;
  let loaded = 0;
  return runImport<Row>(
    d.database.db,
    // One line at a time, so that what the import has read is known at each load.
    (async function* () {
      yield 'name\n';
      for (const n of names) {
        read++;
        yield `${n}\n`;
      }
    })(),
    {
      keys: 'productImport',
      columns: ['name'],
      required: ['name'],
      maxRows: 1000,
      schema: {
        safeParse: (input) =>
          input.name === 'bad'
            ? { success: false, error: { issues: [{ code: 'custom', path: ['name'], message: 'validation.invalid', input: 'bad' }] } }
            : { success: true, data: { name: input.name! } },
      },
      stage: [['name', 'text']],
      toStage: (v) => [v.name],
      chunkRows: 2,
      loadRows: () => 5,
      async load(tx: Tx, staged: number) {
        const [n] = rowsOf<{ n: number }>(await tx.execute(sql.raw(`SELECT count(*)::int AS n FROM ${STAGE}`)));
        expect(n!.n).toBe(staged);
        loads.push(staged);
        opts.seen?.push(read - loaded);
        loaded += staged;
        if (loads.length === opts.failAt) throw new Error('load failed');
        await tx.execute(sql.raw(`INSERT INTO load_rows_sink SELECT row, name FROM ${STAGE} ORDER BY row`));
        return { failures: [] };
      },
    },
    { dryRun: false, language: 'en' },
  );
}

describe('runImport with loadRows', () => {
  it('loads several chunks at once and the rest at the end, every row once and in order', async () => {
    const names = Array.from({ length: 13 }, (_, i) => `n${i}`);
    const loads: number[] = [];
    const result = await importNames(names, loads);
    expect(result).toMatchObject({ rows: 13, stored: 13, valid: true });
    expect(loads).toEqual([6, 6, 1]);
    const rows = rowsOf<{ row: number; name: string }>(await d.database.db.execute(sql`SELECT row, name FROM load_rows_sink ORDER BY row`));
    expect(rows.map((r) => r.name)).toEqual(names);
    expect(rows.map((r) => r.row)).toEqual(names.map((_, i) => i + 2));
  });

  it('still refuses the whole file for one bad row, and loads nothing that stays', async () => {
    await d.database.db.execute(sql`TRUNCATE load_rows_sink`);
    const loads: number[] = [];
    const result = await importNames(['a', 'b', 'c', 'd', 'e', 'f', 'bad', 'h'], loads);
    expect(result).toMatchObject({ valid: false, stored: 0 });
    expect(result.errors.map((e) => e.row)).toEqual([8]);
    const rows = rowsOf<{ n: number }>(await d.database.db.execute(sql`SELECT count(*)::int AS n FROM load_rows_sink`));
    expect(rows[0]!.n).toBe(0);
  });

  it('reads ahead of the loads by a bounded number of rows, so memory holds no more than that', async () => {
    await d.database.db.execute(sql`TRUNCATE load_rows_sink`);
    const names = Array.from({ length: 60 }, (_, i) => `m${i}`);
    const loads: number[] = [];
    const seen: number[] = [];
    const result = await importNames(names, loads, { seen });
    expect(result).toMatchObject({ rows: 60, stored: 60, valid: true });
    expect(loads).toEqual([6, 6, 6, 6, 6, 6, 6, 6, 6, 6]);
    // Read but not loaded at a load: the rows being loaded (6), at most loadRows (5) read ahead rounded up
    // to whole chunks of 2, and the row in hand.
    for (const s of seen) expect(s).toBeLessThanOrEqual(6 + 6 + 1);
    const rows = rowsOf<{ name: string }>(await d.database.db.execute(sql`SELECT name FROM load_rows_sink ORDER BY row`));
    expect(rows.map((r) => r.name)).toEqual(names);
  });

  it('fails with the error of a load while later chunks wait, and keeps nothing', async () => {
    await d.database.db.execute(sql`TRUNCATE load_rows_sink`);
    const names = Array.from({ length: 40 }, (_, i) => `f${i}`);
    await expect(importNames(names, [], { failAt: 2 })).rejects.toThrow('load failed');
    const rows = rowsOf<{ n: number }>(await d.database.db.execute(sql`SELECT count(*)::int AS n FROM load_rows_sink`));
    expect(rows[0]!.n).toBe(0);
    // The connection is usable again: the next import runs.
    const loads: number[] = [];
    expect(await importNames(['x', 'y', 'z'], loads)).toMatchObject({ stored: 3, valid: true });
    expect(loads).toEqual([3]);
  });
});
