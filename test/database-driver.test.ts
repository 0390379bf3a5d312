/**
 * What src/server/db/client.ts adds to the drivers (docs/decisions/0020, "The embedded database under the
 * attack"). bytea on both engines: on PGlite a parameter is bound as bytes (binary format) and the hex
 * answer decoded by Buffer, instead of PGlite's own per-byte hex writer and parser; the bytes arrive and
 * come back unchanged, at every size a report can have. On PGlite, the event loop gets a turn before each
 * statement, so that code awaiting statement after statement does not hold every other request.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGLITE_BYTEA } from '../src/server/db/client';
import { createTestDatabase, type TestDatabase } from './helpers/database';

describe('the database drivers', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.drop());

  it('stores bytes as they are and reads them back as a Buffer, empty, small and large', async () => {
    const values = [Buffer.alloc(0), Buffer.from([0, 1, 92, 120, 255]), randomBytes(300_000)];
    const rows = await t.database.withSession(async (s) => {
      await s.exec('CREATE TEMP TABLE bytes_roundtrip (id int PRIMARY KEY, v bytea)');
      for (const [i, v] of values.entries()) await s.query('INSERT INTO bytes_roundtrip VALUES ($1, $2)', [i, v]);
      // PostgreSQL's text input still works: a `\x` string is bytes too.
      await s.query('INSERT INTO bytes_roundtrip VALUES ($1, $2)', [9, '\\x00ff']);
      return s.query<{ id: number; v: Uint8Array; n: number }>('SELECT id, v, octet_length(v) AS n FROM bytes_roundtrip ORDER BY id');
    });
    // The length PostgreSQL sees: the bytes arrived as bytes, not as their text.
    expect(rows.map((r) => Number(r.n))).toEqual([0, 5, 300_000, 2]);
    for (const [i, v] of values.entries()) expect(Buffer.from(rows[i]!.v).equals(v)).toBe(true);
    expect(Buffer.from(rows[3]!.v).equals(Buffer.from([0, 255]))).toBe(true);
    if (t.database.kind === 'pglite') expect(Buffer.isBuffer(rows[2]!.v)).toBe(true);
  });

  it('hands PGlite the bytes themselves, which it binds in the binary format', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    expect(PGLITE_BYTEA.serializers[17](bytes)).toBe(bytes);
    expect(() => PGLITE_BYTEA.serializers[17](12)).toThrow('Invalid input for bytea type');
  });

  it('gives the event loop a turn before each statement on the embedded database', async () => {
    // Tasks of the event loop (setImmediate) counted while 40 statements run one after another.
    let turns = 0;
    let counting = true;
    const count = () => {
      if (!counting) return;
      turns++;
      setImmediate(count);
    };
    setImmediate(count);
    for (let i = 0; i < 40; i++) await t.database.db.execute(sql`select ${i}::int as n`);
    counting = false;
    // PostgreSQL's answers arrive as I/O, which always gives turns; PGlite's were microtasks only.
    expect(turns).toBeGreaterThanOrEqual(30);
  });
});
