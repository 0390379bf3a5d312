/**
 * `npm run backup` / `npm run restore` for the embedded database (PGlite under DATA_DIR). One file,
 * trc-backup-<date>.tar.gz, holding manifest.json (format, app version, migrations applied, date, row
 * count of each table, sha256 of the data) and pglite-data.tar.gz (PGlite's own dump of its data folder,
 * taken with the database open, so it is consistent). PostgreSQL is backed up with pg_dump
 * (docs/operations.md).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../db/private-files';
import { OpsError, openPgliteDir, pgliteDir, refuseWhileServing, tableCounts } from './embedded';
import { tarGz, untarGz } from './tar';

export const BACKUP_FORMAT = 'test-report-center-embedded-backup/1';
const DATA_ENTRY = 'pglite-data.tar.gz';

export interface Manifest {
  format: string;
  appVersion: string;
  createdAt: string;
  database: 'pglite';
  migrations: string[];
  migrationLevel: string | null;
  tables: Record<string, number>;
  dataSha256: string;
  dataBytes: number;
}

async function migrationsOf(query: (text: string) => Promise<Array<Record<string, unknown>>>): Promise<string[]> {
  const rows = await query("SELECT name FROM schema_migrations WHERE to_regclass('schema_migrations') IS NOT NULL ORDER BY name").catch(
    () => [],
  );
  return rows.map((r) => String(r.name));
}

export function defaultBackupName(now = new Date()): string {
  return `trc-backup-${now
    .toISOString()
    .replace(/[:.]/g, '-')
    .replace(/-\d{3}Z$/, 'Z')}.tar.gz`;
}

/** Writes the backup of DATA_DIR's database to `file`; refuses while the server runs on it. */
export async function backupEmbedded(dataDir: string, file: string, appVersion: string): Promise<Manifest> {
  refuseWhileServing(dataDir, 'run the backup again');
  const dir = pgliteDir(dataDir);
  if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) throw new OpsError(`no embedded database under ${dataDir} (DATA_DIR)`);
  if (fs.existsSync(file)) throw new OpsError(`${file} exists already; give another file name`);
  const pg = await openPgliteDir(dir);
  let manifest: Manifest;
  let data: Buffer;
  try {
    const query = async (text: string) => (await pg.query<Record<string, unknown>>(text)).rows;
    const migrations = await migrationsOf(query);
    const tables = await tableCounts(query);
    data = Buffer.from(await (await pg.dumpDataDir('gzip')).arrayBuffer());
    manifest = {
      format: BACKUP_FORMAT,
      appVersion,
      createdAt: new Date().toISOString(),
      database: 'pglite',
      migrations,
      migrationLevel: migrations.at(-1) ?? null,
      tables,
      dataSha256: createHash('sha256').update(data).digest('hex'),
      dataBytes: data.length,
    };
  } finally {
    await pg.close();
  }
  const tmp = `${file}.partial`;
  // The archive holds the whole database (signing key, password hashes, customers' addresses): 0600 wherever
  // it is written, DATA_DIR/backups or a folder the operator named. A .partial left by an interrupted run
  // is removed first, so the new one is created, with that mode, rather than reused with its own.
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true, mode: PRIVATE_DIR_MODE });
  fs.rmSync(tmp, { force: true });
  fs.writeFileSync(
    tmp,
    tarGz([
      { name: 'manifest.json', data: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`) },
      { name: DATA_ENTRY, data },
    ]),
    { mode: PRIVATE_FILE_MODE, flag: 'wx' },
  );
  fs.renameSync(tmp, file);
  return manifest;
}

/** Reads and checks a backup file: its manifest and the data's checksum. */
export function readBackup(file: string): { manifest: Manifest; data: Buffer } {
  let entries;
  try {
    entries = untarGz(fs.readFileSync(file));
  } catch (err) {
    throw new OpsError(`${file} is not a readable backup: ${(err as Error).message}`);
  }
  const manifestEntry = entries.find((e) => e.name === 'manifest.json');
  const dataEntry = entries.find((e) => e.name === DATA_ENTRY);
  if (!manifestEntry || !dataEntry) throw new OpsError(`${file} is not a Test Report Center backup (manifest or data missing)`);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(manifestEntry.data.toString('utf8')) as Manifest;
  } catch {
    throw new OpsError(`${file}: the manifest is not JSON`);
  }
  if (manifest.format !== BACKUP_FORMAT) throw new OpsError(`${file}: unknown backup format ${JSON.stringify(manifest.format)}`);
  const sha = createHash('sha256').update(dataEntry.data).digest('hex');
  if (sha !== manifest.dataSha256) throw new OpsError(`${file} is damaged: the data's checksum does not match the manifest`);
  return { manifest, data: dataEntry.data };
}

export interface RestoreResult {
  manifest: Manifest;
  /** where the data that was there before went (with --force), or null */
  movedAside: string | null;
}

/**
 * Restores `file` into DATA_DIR. Refuses while the server runs there, and when DATA_DIR already holds a
 * database unless `force` (which moves that database aside to pglite.before-restore-<date>, never deletes
 * it). Afterwards every table's row count is checked against the manifest.
 */
export async function restoreEmbedded(file: string, dataDir: string, force: boolean, knownMigrations: string[]): Promise<RestoreResult> {
  refuseWhileServing(dataDir, 'restore');
  const { manifest, data } = readBackup(file);
  const unknown = manifest.migrations.filter((m) => !knownMigrations.includes(m));
  if (unknown.length) {
    throw new OpsError(
      `the backup was taken by a newer version (migrations ${unknown.join(', ')} are unknown here); restore it with that version`,
    );
  }
  const dir = pgliteDir(dataDir);
  let movedAside: string | null = null;
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) {
    if (!force) throw new OpsError(`${dir} already holds a database; add --force to move it aside and restore over it`);
    movedAside = `${dir}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    fs.renameSync(dir, movedAside);
  }
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  try {
    const pg = await openPgliteDir(dir, { loadDataDir: new Blob([new Uint8Array(data)]) });
    try {
      const counts = await tableCounts(async (text) => (await pg.query<Record<string, unknown>>(text)).rows);
      const wrong = Object.entries(manifest.tables).filter(([t, n]) => counts[t] !== n);
      if (wrong.length) {
        throw new OpsError(
          `restored data does not match the manifest: ${wrong.map(([t, n]) => `${t} ${counts[t]} rows, expected ${n}`).join('; ')}`,
        );
      }
    } finally {
      await pg.close();
    }
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    if (movedAside) fs.renameSync(movedAside, dir);
    throw err;
  }
  return { manifest, movedAside };
}
