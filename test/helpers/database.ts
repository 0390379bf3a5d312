/**
 * A fresh database for one test file: PGlite in memory by default, or a new database on the PostgreSQL
 * server named by TEST_DATABASE_URL (created here, dropped afterwards). The benchmarks use the same helpers.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/server/db/client';
import { migrate } from '../../src/server/db/migrate';

export interface TestDatabase {
  database: Database;
  url?: string;
  drop(): Promise<void>;
}

async function onServer(serverUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/** A new, empty database on the PostgreSQL server at `serverUrl`: its URL and how to drop it. */
export async function createEmptyPostgresDatabase(
  serverUrl: string,
  prefix = 'trc_test',
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** A migrated database: in memory (PGlite) without `serverUrl`, else a new one on that PostgreSQL server. */
export async function createMigratedDatabase(
  serverUrl: string | undefined,
  options: { prefix?: string; maxConnections?: number } = {},
): Promise<TestDatabase> {
  if (!serverUrl) {
    const database = await openDatabase({});
    await migrate(database);
    return { database, drop: () => database.close() };
  }
  const scratch = await createEmptyPostgresDatabase(serverUrl, options.prefix);
  const database = await openDatabase({ url: scratch.url, maxConnections: options.maxConnections ?? 5 });
  await migrate(database);
  return {
    database,
    url: scratch.url,
    drop: async () => {
      await database.close();
      await scratch.drop();
    },
  };
}

export function createTestDatabase(): Promise<TestDatabase> {
  return createMigratedDatabase(process.env.TEST_DATABASE_URL);
}
