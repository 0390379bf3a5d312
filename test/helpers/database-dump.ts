/**
 * Everything a reader of the database could see, as text: `pg_dump` of the test database on PostgreSQL,
 * or every row of every table as JSON on PGlite (which has no pg_dump). For "is this secret stored
 * anywhere?" checks.
 */
import { execFileSync } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../src/server/db/client';
import type { TestDatabase } from './database';

export async function dumpDatabase(testDb: TestDatabase): Promise<string> {
  if (testDb.url)
    return execFileSync('pg_dump', ['--data-only', '--no-owner', testDb.url], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const db = testDb.database.db;
  const tables = rowsOf<{ name: string }>(
    await db.execute(sql`SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`),
  );
  const parts: string[] = [];
  for (const { name } of tables) {
    const rows = rowsOf<{ row: string }>(await db.execute(sql.raw(`SELECT row_to_json(t)::text AS row FROM ${name} t`)));
    parts.push(`-- ${name}`, ...rows.map((r) => r.row));
  }
  return parts.join('\n');
}
