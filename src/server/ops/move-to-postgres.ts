/**
 * `npm run move-to-postgres -- --to postgres://…`: copies the embedded database (DATA_DIR) into an empty
 * PostgreSQL database. The target gets the schema from the migrations, then every table's rows in foreign
 * key order (parents first), each table in one transaction on the target; then every sequence is set to the
 * source's value, and every table's row count is compared. The source is only read.
 */
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase } from '../db/client';
import { listMigrations, migrate } from '../db/migrate';
import { OpsError, openPgliteDir, pgliteDir, refuseWhileServing, tableCounts } from './embedded';
import fs from 'node:fs';
import path from 'node:path';

const BATCH_ROWS = 500;
const BATCH_BYTES = 8 * 1024 * 1024;

const q = (name: string) => `"${name.replaceAll('"', '""')}"`;

export interface MoveResult {
  tables: Record<string, number>;
  sequences: number;
}

export interface ForeignKey {
  child: string;
  parent: string;
  /** the constraint's name, to drop and add it again when it closes a cycle */
  name?: string;
}

/**
 * Tables ordered so that each comes after the tables it references (self references are ignored). A foreign
 * key that closes a cycle (a delivery's unit names its newest certificate, which names the unit) cannot be
 * satisfied table by table: it is returned apart, to be dropped for the copy and added again after it, which
 * checks every copied row against it.
 */
export function orderByForeignKeys(tables: string[], edges: ForeignKey[]): { order: string[]; cycles: ForeignKey[] } {
  const done = new Set<string>();
  const out: string[] = [];
  const visiting = new Set<string>();
  const cycles: ForeignKey[] = [];
  const visit = (t: string) => {
    if (done.has(t)) return;
    visiting.add(t);
    for (const e of edges) {
      if (e.child !== t || e.parent === t || !tables.includes(e.parent)) continue;
      if (visiting.has(e.parent)) cycles.push(e);
      else visit(e.parent);
    }
    visiting.delete(t);
    done.add(t);
    out.push(t);
  };
  for (const t of [...tables].sort()) visit(t);
  return { order: out, cycles };
}

async function rows<T>(db: PGlite, text: string, params: unknown[] = []): Promise<T[]> {
  return (await db.query<T>(text, params)).rows;
}

export async function moveToPostgres(
  dataDir: string,
  targetUrl: string,
  log: (line: string) => void = () => undefined,
): Promise<MoveResult> {
  refuseWhileServing(dataDir, 'move the database');
  const dir = pgliteDir(dataDir);
  if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) throw new OpsError(`no embedded database under ${dataDir} (DATA_DIR)`);

  // The target must be empty: no table at all in its public schema.
  const probe = new pg.Client({ connectionString: targetUrl, connectionTimeoutMillis: 10_000 });
  await probe.connect().catch((err: Error) => {
    throw new OpsError(`cannot reach the target database: ${err.message}`);
  });
  try {
    const { rows: existing } = await probe.query<{ n: string }>(
      "SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = 'public'",
    );
    if (Number(existing[0]?.n ?? 0) > 0) {
      throw new OpsError('the target database is not empty (its public schema has tables); give an empty database');
    }
  } finally {
    await probe.end();
  }

  const source = await openPgliteDir(dir);
  try {
    // The source at the code's migration level first, so both sides have the same tables.
    const known = listMigrations().map((m) => m.name);
    const applied = (await rows<{ name: string }>(source, 'SELECT name FROM schema_migrations ORDER BY name').catch(() => [])).map(
      (r) => r.name,
    );
    const missing = known.filter((m) => !applied.includes(m));
    if (missing.length)
      throw new OpsError(
        `the embedded database lacks migrations ${missing.join(', ')}; start the server once (or npm run db:migrate) first`,
      );
    const unknown = applied.filter((m) => !known.includes(m));
    if (unknown.length) throw new OpsError(`the embedded database has migrations this version does not know (${unknown.join(', ')})`);

    const target = await openDatabase({ url: targetUrl, maxConnections: 2 });
    try {
      await migrate(target);
    } finally {
      await target.close();
    }

    const client = new pg.Client({ connectionString: targetUrl });
    await client.connect();
    try {
      const tables = (
        await client.query<{ t: string }>(
          "SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'schema_migrations'",
        )
      ).rows.map((r) => r.t);
      const edges = (
        await client.query<{ child: string; parent: string; name: string }>(`
        SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent, c.conname AS name
          FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
         WHERE c.contype = 'f' AND n.nspname = 'public'`)
      ).rows.map((e) => ({ child: e.child.replaceAll('"', ''), parent: e.parent.replaceAll('"', ''), name: e.name }));
      const { order: ordered, cycles } = orderByForeignKeys(tables, edges);
      // The keys that close a cycle, dropped for the copy and added again (and so checked) after it.
      const readd: Array<{ table: string; name: string; definition: string }> = [];
      for (const e of cycles) {
        const { rows: def } = await client.query<{ d: string }>(
          'SELECT pg_get_constraintdef(oid) AS d FROM pg_constraint WHERE conname = $1 AND conrelid = $2::regclass',
          [e.name, q(e.child)],
        );
        readd.push({ table: e.child, name: e.name!, definition: def[0]!.d });
        await client.query(`ALTER TABLE ${q(e.child)} DROP CONSTRAINT ${q(e.name!)}`);
      }
      // Our triggers (change stamps, audit guards) must not fire on copied rows. The migrations made us the
      // tables' owner, which may disable them (foreign keys stay checked: parents are copied first).
      for (const t of tables) await client.query(`ALTER TABLE ${q(t)} DISABLE TRIGGER USER`);
      // Rows the migrations seed (settings, counters) come from the source instead.
      if (tables.length) await client.query(`TRUNCATE ${tables.map(q).join(', ')} RESTART IDENTITY CASCADE`);

      for (const table of ordered) {
        const columns = (
          await client.query<{ c: string }>(
            `SELECT column_name AS c FROM information_schema.columns
            WHERE table_schema = 'public' AND table_name = $1 AND is_generated = 'NEVER' ORDER BY ordinal_position`,
            [table],
          )
        ).rows.map((r) => r.c);
        const cols = columns.map(q).join(', ');
        let copied = 0;
        await client.query('BEGIN');
        try {
          await source.transaction(async (tx) => {
            await tx.exec(`DECLARE trc_move NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS j FROM ${q(table)} t`);
            for (;;) {
              const batch = (await tx.query<{ j: string }>(`FETCH ${BATCH_ROWS} FROM trc_move`)).rows;
              if (batch.length === 0) break;
              // Split a batch of big rows (report PDFs) so no single statement grows past BATCH_BYTES.
              let part: string[] = [];
              let bytes = 0;
              const flush = async () => {
                if (!part.length) return;
                await client.query(
                  `INSERT INTO ${q(table)} (${cols}) OVERRIDING SYSTEM VALUE
                   SELECT ${cols} FROM json_populate_recordset(NULL::${q(table)}, $1::json)`,
                  [`[${part.join(',')}]`],
                );
                copied += part.length;
                part = [];
                bytes = 0;
              };
              for (const r of batch) {
                part.push(r.j);
                bytes += r.j.length;
                if (bytes > BATCH_BYTES) await flush();
              }
              await flush();
            }
            await tx.exec('CLOSE trc_move');
          });
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK');
          throw new OpsError(
            `copying ${table} failed: ${(err as Error).message} (drop and create the target database before trying again)`,
          );
        }
        log(`  ${table}: ${copied} rows`);
      }
      for (const t of tables) await client.query(`ALTER TABLE ${q(t)} ENABLE TRIGGER USER`);
      for (const k of readd) {
        await client.query(`ALTER TABLE ${q(k.table)} ADD CONSTRAINT ${q(k.name)} ${k.definition}`).catch((err: Error) => {
          throw new OpsError(`the copied rows break ${k.name}: ${err.message} (drop and create the target database before trying again)`);
        });
      }

      const sequences = await rows<{ name: string; last_value: string | null }>(
        source,
        "SELECT quote_ident(schemaname) || '.' || quote_ident(sequencename) AS name, last_value::text FROM pg_sequences WHERE schemaname = 'public'",
      );
      for (const s of sequences) {
        if (s.last_value !== null) await client.query('SELECT setval($1::regclass, $2::bigint, true)', [s.name, s.last_value]);
      }

      const want = await tableCounts(async (text) => rows<Record<string, unknown>>(source, text));
      const got = await tableCounts(async (text) => (await client.query<Record<string, unknown>>(text)).rows);
      const wrong = Object.keys(want).filter((t) => want[t] !== got[t]);
      if (wrong.length)
        throw new OpsError(`row counts differ after the copy: ${wrong.map((t) => `${t} ${got[t]} of ${want[t]}`).join('; ')}`);
      return { tables: want, sequences: sequences.length };
    } finally {
      await client.end();
    }
  } finally {
    await source.close();
  }
}
