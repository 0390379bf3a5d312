/**
 * One database handle for both engines: embedded PGlite (default; data under DATA_DIR) or PostgreSQL
 * (DATABASE_URL). The same schema and SQL migrations serve both; code above this file sees only `Db`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PGlite, types as pgliteTypes, type PGliteOptions } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { citext } from '@electric-sql/pglite/contrib/citext';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { readClusterTemplate } from './cluster-template';
import { PRIVATE_DIR_MODE } from './private-files';
import { PrivateNodeFS } from './private-nodefs';
import * as schema from './schema/index';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** What a repository takes: the database or an open transaction. */
export type Executor = Db | Tx;

/** One connection, for work that must stay on it (migrations under an advisory lock). */
export interface RawSession {
  exec(text: string): Promise<void>;
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
}

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** PostgreSQL's connection pool, for the metrics (absent on PGlite) */
  pool?: { totalCount: number; idleCount: number; waitingCount: number };
  poolMax?: number;
  withSession<T>(fn: (s: RawSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… selects PostgreSQL */
  url?: string;
  /** folder for PGlite's files; omitted: in memory (tests) */
  dataDir?: string;
  /** pool size for PostgreSQL */
  maxConnections?: number;
  /** PGlite: start from this dump (`dumpDataDir()`) instead of a new, empty cluster (the tests' migrated template) */
  loadDataDir?: Blob;
}

// Numeric and bigint columns come back as strings from both drivers; dates stay as Date via Drizzle.
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.url ? openPostgres(options.url, options.maxConnections ?? 10) : openPglite(options.dataDir, options.loadDataDir);
}

/**
 * PostgreSQL's memory settings for the embedded database, which lives inside this process's memory: the
 * defaults (128 MB of shared buffers, 64 MB for maintenance) suit a server of its own, not one process on
 * a small machine. PGlite touches all of its shared buffers when it starts (its WebAssembly memory in RAM
 * went from 30 to 22 MB with 8 MB of them instead of 16), so each MB of them is a MB of the idle server;
 * the rest of the data is read through the operating system's page cache (a read is a system call, not a
 * disk seek). With 8 MB the Searches list over 150,000 requests answered its first pages as fast as with
 * 16 (docs/decisions/0019-embedded-memory.md, 0033-server-memory.md).
 */
const PGLITE_MEMORY = ['shared_buffers=8MB', 'work_mem=4MB', 'maintenance_work_mem=16MB', 'temp_buffers=2MB', 'wal_buffers=1MB'];

const BYTEA = pgliteTypes.BYTEA;

/**
 * bytea through native code. PGlite's own serialiser writes a parameter as hex through `Array.from(bytes)`
 * and one string per byte, and its parser reads the answer back one `parseInt` per byte: for a 100 KB
 * report, 10–40 ms of the app's thread each way and megabytes of garbage. Here a parameter goes as it is
 * (PGlite binds a Uint8Array in PostgreSQL's binary format: the bytes are copied, not encoded) and the
 * hex answer is decoded by Buffer (docs/decisions/0020, "The embedded database under the attack").
 */
export const PGLITE_BYTEA = {
  serializers: {
    [BYTEA]: (value: unknown) => {
      if (value instanceof Uint8Array || typeof value === 'string') return value as string;
      throw new Error('Invalid input for bytea type');
    },
  },
  parsers: {
    // PostgreSQL's default bytea_output is hex (a backslash, x, then the digits); anything else goes to PGlite's own parser.
    [BYTEA]: (text: string): Uint8Array =>
      text.startsWith('\\x') ? Buffer.from(text.slice(2), 'hex') : (pgliteTypes.parsers[BYTEA]!(text, BYTEA) as Uint8Array),
  },
} satisfies Pick<PGliteOptions, 'serializers' | 'parsers'>;

/**
 * A PGlite instance with the app's extensions and memory settings (`dir` omitted: in memory). A folder's
 * files are owner-only whatever the umask (private-nodefs.ts).
 */
export function createPglite(dir?: string, extra: Partial<PGliteOptions> = {}): Promise<PGlite> {
  return PGlite.create({
    ...(dir ? { fs: new PrivateNodeFS(dir) } : {}),
    extensions: { btree_gist, citext, pg_trgm },
    startParams: [...PGlite.defaultStartParams, ...PGLITE_MEMORY.flatMap((p) => ['-c', p])],
    ...PGLITE_BYTEA,
    ...extra,
  });
}

async function openPglite(dataDir?: string, loadDataDir?: Blob): Promise<Database> {
  let dir: string | undefined;
  let start = loadDataDir;
  if (dataDir) {
    dir = path.join(dataDir, 'pglite');
    fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    // A new data directory starts from the cluster made at build time, not from initdb (see cluster-template.ts).
    if (!start && !fs.existsSync(path.join(dir, 'PG_VERSION'))) start = readClusterTemplate();
  }
  const client = await createPglite(dir, start ? { loadDataDir: start } : {});
  yieldBetweenStatements(client);
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  // PGlite has one connection; its own queue serialises callers, so a "session" is the client itself.
  const session: RawSession = {
    exec: async (text) => {
      await client.exec(text);
    },
    query: async <R>(text: string, params: unknown[] = []) => (await client.query<R>(text, params)).rows,
  };
  // Advisory locks are re-entrant within one connection, so on PGlite they cannot keep two callers in
  // this process apart: sessions are handed out one at a time instead.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    kind: 'pglite',
    db,
    withSession: <T>(fn: (s: RawSession) => Promise<T>) => {
      const run = queue.then(() => fn(session));
      queue = run.catch(() => undefined);
      return run;
    },
    close: () => client.close(),
  };
}

/** Node's own, taken before a test can replace the global with a fake. */
const nextTask = setImmediate;

/**
 * A turn for the rest of the app before each statement on the embedded database. PGlite runs a statement
 * synchronously inside a promise, so code awaiting statement after statement never gave the event loop
 * back: a report request's 20–40 statements between two renders ran as one run of microtasks, and
 * /healthz, lookups and staff screens waited behind those of every admitted request (docs/decisions/0020,
 * "The embedded database under the attack"). Each statement now starts in a task of its own
 * (setImmediate): whatever arrived meanwhile is answered between two statements, at the cost of a few
 * microseconds per statement. Parse ('P', a statement with parameters) and Query ('Q', a simple query)
 * are the messages that start one; the rest of its messages follow at once.
 */
export function yieldBetweenStatements(client: PGlite): void {
  const stream = client.execProtocolStream.bind(client);
  client.execProtocolStream = async (message, options) => {
    if (message[0] === 0x50 || message[0] === 0x51) await new Promise<void>((resolve) => nextTask(resolve));
    return stream(message, options);
  };
}

async function openPostgres(url: string, max: number): Promise<Database> {
  // node-postgres only for a PostgreSQL server: a server on the embedded database never loads it.
  const [{ default: pg }, { drizzle: drizzlePg }] = await Promise.all([import('pg'), import('drizzle-orm/node-postgres')]);
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 5000 });
  // An idle client that loses its server must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  const probe = await pool.connect();
  probe.release();
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    kind: 'postgres',
    db,
    pool,
    poolMax: max,
    withSession: async (fn) => {
      const client = await pool.connect();
      try {
        return await fn({
          exec: async (text) => {
            await client.query(text);
          },
          query: async <R>(text: string, params: unknown[] = []) => (await client.query(text, params)).rows as R[],
        });
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/** Rows of a raw `db.execute(sql\`…\`)`: both drivers answer `{ rows }`, which Drizzle's shared type hides. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
