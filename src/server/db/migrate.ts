/**
 * SQL migrations kept in ./migrations, applied in file-name order, each in its own transaction, under a
 * PostgreSQL advisory lock so that two instances starting at once do not race.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database, RawSession } from './client';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
const LOCK_ID = 7_347_001; // any constant shared by all instances of this app

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export function listMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

async function ensureTable(s: RawSession): Promise<void> {
  await s.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    name text PRIMARY KEY,
    checksum text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
}

/** Applies what is pending; returns the names applied. */
export async function migrate(database: Database, dir = MIGRATIONS_DIR): Promise<string[]> {
  const migrations = listMigrations(dir);
  return database.withSession(async (s) => {
    await s.query('SELECT pg_advisory_lock($1)', [LOCK_ID]);
    try {
      await ensureTable(s);
      const done = new Map(
        (await s.query<{ name: string; checksum: string }>('SELECT name, checksum FROM schema_migrations')).map((r) => [
          r.name,
          r.checksum,
        ]),
      );
      const applied: string[] = [];
      for (const m of migrations) {
        const known = done.get(m.name);
        if (known !== undefined) {
          if (known !== m.checksum) {
            throw new Error(`Migration ${m.name} was changed after it was applied; add a new migration instead`);
          }
          continue;
        }
        await s.exec('BEGIN');
        try {
          await s.exec(m.sql);
          await s.query('INSERT INTO schema_migrations (name, checksum) VALUES ($1, $2)', [m.name, m.checksum]);
          await s.exec('COMMIT');
        } catch (err) {
          await s.exec('ROLLBACK');
          throw new Error(`Migration ${m.name} failed: ${(err as Error).message}`, { cause: err });
        }
        applied.push(m.name);
      }
      return applied;
    } finally {
      await s.query('SELECT pg_advisory_unlock($1)', [LOCK_ID]);
    }
  });
}

/** Names of migrations in the repo that the database has not applied (for /readyz). */
export async function pendingMigrations(database: Database, dir = MIGRATIONS_DIR): Promise<string[]> {
  const rows = await database
    .withSession((s) => s.query<{ name: string }>("SELECT name FROM schema_migrations WHERE to_regclass('schema_migrations') IS NOT NULL"))
    .catch(() => [] as { name: string }[]);
  const done = new Set(rows.map((r) => r.name));
  return listMigrations(dir)
    .map((m) => m.name)
    .filter((n) => !done.has(n));
}
