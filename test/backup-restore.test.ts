/**
 * npm run backup / restore of the embedded database: one tar.gz with a manifest (format, version, migration
 * level, date, row counts, checksum); restore refuses a running server, a non-empty DATA_DIR without
 * --force and a damaged file; the server starts on the restored data with the same rows and serves them.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, rowsOf } from '../src/server/db/client';
import { listMigrations } from '../src/server/db/migrate';
import { backupEmbedded, readBackup, restoreEmbedded } from '../src/server/ops/backup';
import { LOCK_FILE, holdDataDir, tableCounts } from '../src/server/ops/embedded';
import { appOn, seedEmbedded, tmpDataDir } from './helpers/embedded-data';

const known = listMigrations().map((m) => m.name);
let source: string;
let serial: string;
let file: string;
const dirs: string[] = [];

beforeAll(async () => {
  source = tmpDataDir();
  dirs.push(source);
  ({ serial } = await seedEmbedded(source));
  file = path.join(source, 'backups', 'one.tar.gz');
}, 120_000);
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

async function countsOf(dataDir: string): Promise<Record<string, number>> {
  const database = await openDatabase({ dataDir });
  try {
    return await tableCounts(async (text) => rowsOf<Record<string, unknown>>(await database.db.execute(sql.raw(text))));
  } finally {
    await database.close();
  }
}

describe('backup', () => {
  it('refuses while a server holds DATA_DIR, naming how to stop it', async () => {
    const release = holdDataDir(source);
    try {
      await expect(backupEmbedded(source, path.join(source, 'x.tar.gz'), 't')).rejects.toThrow(
        /server \(pid \d+\) is running.*stop it first/,
      );
    } finally {
      release();
    }
    expect(fs.existsSync(path.join(source, LOCK_FILE))).toBe(false);
  });

  it("writes one tar.gz whose manifest carries version, migration level, date and every table's rows", async () => {
    const m = await backupEmbedded(source, file, '9.9.9');
    expect(fs.existsSync(file)).toBe(true);
    const { manifest } = readBackup(file);
    expect(manifest).toEqual(m);
    expect(manifest).toMatchObject({
      format: 'test-report-center-embedded-backup/1',
      appVersion: '9.9.9',
      database: 'pglite',
      migrationLevel: known.at(-1),
    });
    expect(manifest.migrations).toEqual(known);
    expect(Date.now() - Date.parse(manifest.createdAt)).toBeLessThan(10 * 60_000);
    expect(manifest.tables).toEqual(await countsOf(source));
    expect(manifest.tables.reports).toBe(2);
    expect(manifest.tables.users).toBeGreaterThan(0);
    // The system tar reads it too.
    const listed = spawnSync('tar', ['-tzf', file], { encoding: 'utf8' });
    if (listed.status === 0) expect(listed.stdout.split('\n').filter(Boolean)).toEqual(['manifest.json', 'pglite-data.tar.gz']);
    await expect(backupEmbedded(source, file, '9.9.9')).rejects.toThrow(/exists already/);
  });
});

describe('restore', () => {
  it("restores into an empty DATA_DIR; the app serves the same rows, the report's bytes included", async () => {
    const target = tmpDataDir();
    dirs.push(target);
    const r = await restoreEmbedded(file, target, false, known);
    expect(r.movedAside).toBeNull();
    expect(await countsOf(target)).toEqual(readBackup(file).manifest.tables);

    const database = await openDatabase({ dataDir: target });
    const { t, close } = await appOn(database, target);
    try {
      expect((await t.app.inject('/readyz')).statusCode).toBe(200);
      const [before] = rowsOf<{ sha: string }>(
        await database.db.execute(sql`select encode(sha256(bytes), 'hex') as sha from reports where serial = ${serial}`),
      );
      const [stored] = rowsOf<{ sha: string }>(
        await database.db.execute(sql`select encode(sha256, 'hex') as sha from reports where serial = ${serial}`),
      );
      expect(before?.sha).toBe(stored?.sha);
    } finally {
      await close();
      await database.close();
    }
  });

  it('refuses a DATA_DIR that holds a database unless --force, which moves it aside', async () => {
    const target = tmpDataDir();
    dirs.push(target);
    await restoreEmbedded(file, target, false, known);
    await expect(restoreEmbedded(file, target, false, known)).rejects.toThrow(/already holds a database; add --force/);
    const r = await restoreEmbedded(file, target, true, known);
    expect(r.movedAside).toMatch(/pglite\.before-restore-/);
    expect(fs.existsSync(path.join(r.movedAside!, 'PG_VERSION'))).toBe(true);
  });

  it('refuses while a server runs there, a damaged file, something else, and a backup from a newer version', async () => {
    const target = tmpDataDir();
    dirs.push(target);
    const release = holdDataDir(target);
    await expect(restoreEmbedded(file, target, true, known)).rejects.toThrow(/is running/);
    release();

    const bytes = fs.readFileSync(file);
    const damaged = path.join(target, 'damaged.tar.gz');
    fs.writeFileSync(damaged, bytes.subarray(0, Math.floor(bytes.length / 2)));
    await expect(restoreEmbedded(damaged, target, false, known)).rejects.toThrow(/not a readable backup/);
    const other = path.join(target, 'other.tar.gz');
    fs.writeFileSync(other, 'hello');
    await expect(restoreEmbedded(other, target, false, known)).rejects.toThrow(/not a readable backup/);
    await expect(restoreEmbedded(file, target, false, known.slice(0, -1))).rejects.toThrow(/newer version/);
    expect(fs.existsSync(path.join(target, 'pglite'))).toBe(false);
  });
});
