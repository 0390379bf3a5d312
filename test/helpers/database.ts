/**
 * A fresh database for one test file: PGlite in memory by default, or a new database on the PostgreSQL
 * server named by TEST_DATABASE_URL (created here, dropped afterwards). The benchmarks use the same helpers.
 *
 * Under Vitest, test/global-setup.ts migrates one template database per run (a PGlite dump in a file, or a
 * template database on the PostgreSQL server) and each new migrated database is a copy of it: the same
 * schema and rows as migrating afresh, without starting an empty PGlite cluster (initdb, seconds each) or
 * replaying the migrations every time. Without the template (benchmarks, a single file run by hand
 * outside Vitest) the database is migrated as before.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/server/db/client';
import { migrate } from '../../src/server/db/migrate';
import { makeMigratedCluster } from '../../src/server/db/migrated-cluster';

/** File holding the dump of a migrated PGlite database (set by test/global-setup.ts). */
export const PGLITE_TEMPLATE_ENV = 'TRC_TEST_PGLITE_TEMPLATE';
/** Name of a migrated template database on TEST_DATABASE_URL's server (set by test/global-setup.ts). */
export const POSTGRES_TEMPLATE_ENV = 'TRC_TEST_POSTGRES_TEMPLATE';

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
  /** a database to copy instead (CREATE DATABASE … TEMPLATE): then not empty */
  template?: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

let templateRead: { file: string; blob: Blob } | undefined;

/**
 * The PGlite template's dump, read once per test process: the test files of a worker share its modules
 * (vitest.config.ts), and reading the 45 MB file into a Blob took 0.4 s of each file's 1.2 s to open its
 * database. PGlite only reads the Blob, so every copy starts from the same bytes.
 */
function pgliteTemplate(): Blob | undefined {
  const file = process.env[PGLITE_TEMPLATE_ENV];
  if (!file) return undefined;
  if (templateRead?.file !== file) templateRead = { file, blob: new Blob([fs.readFileSync(file)]) };
  return templateRead.blob;
}

/** A migrated database: in memory (PGlite) without `serverUrl`, else a new one on that PostgreSQL server. */
export async function createMigratedDatabase(
  serverUrl: string | undefined,
  /** template: a database on that server to copy (CREATE DATABASE … TEMPLATE) instead of the tests' own */
  options: { prefix?: string; maxConnections?: number; template?: string } = {},
): Promise<TestDatabase> {
  if (!serverUrl) {
    const template = pgliteTemplate();
    const database = await openDatabase(template ? { loadDataDir: template } : {});
    // A no-op on the template's copy (every migration is recorded there), a full run otherwise.
    await migrate(database);
    return { database, drop: () => database.close() };
  }
  const template = options.template ?? (serverUrl === process.env.TEST_DATABASE_URL ? process.env[POSTGRES_TEMPLATE_ENV] : undefined);
  const scratch = await createEmptyPostgresDatabase(serverUrl, options.prefix, template);
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

/**
 * For test/global-setup.ts: a migrated PGlite database dumped to `file`, whose copies the tests open. Returns
 * the dump, which the global setup also keeps compressed as the cluster file.
 */
export async function writePgliteTemplate(file: string): Promise<Uint8Array> {
  const dump = await makeMigratedCluster('none');
  fs.writeFileSync(file, dump);
  return dump;
}

/** For test/global-setup.ts: a migrated template database on the server at `serverUrl`; its name and how to drop it. */
export async function createPostgresTemplate(serverUrl: string): Promise<{ name: string; drop(): Promise<void> }> {
  const scratch = await createEmptyPostgresDatabase(serverUrl, 'trc_tpl');
  const database = await openDatabase({ url: scratch.url, maxConnections: 1 });
  try {
    await migrate(database);
  } finally {
    // CREATE DATABASE … TEMPLATE needs the template without connections.
    await database.close();
  }
  return { name: new URL(scratch.url).pathname.slice(1), drop: scratch.drop };
}
