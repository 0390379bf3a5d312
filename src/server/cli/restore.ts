/**
 * `npm run restore -- <file> [--force]`: a backup made by `npm run backup` into DATA_DIR. Refuses while
 * the server runs there, and over an existing database without --force (which moves it aside, never
 * deletes it). One line and exit 1 on errors.
 */
import path from 'node:path';
import { ConfigError, loadConfig } from '../config';
import { listMigrations } from '../db/migrate';
import { makeDataDirPrivate, PrivateDataDirError, useOwnerOnlyUmask } from '../db/private-files';
import { restoreEmbedded } from '../ops/backup';
import { OpsError } from '../ops/embedded';

function fail(message: string): never {
  process.stderr.write(`restore: ${message}\n`);
  process.exit(1);
}

useOwnerOnlyUmask();
try {
  const config = loadConfig();
  if (config.databaseUrl) fail('DATABASE_URL is set: restore PostgreSQL with pg_restore (see docs/operations.md, "Restores")');
  makeDataDirPrivate(config.dataDir);
  const args = process.argv.slice(2).filter((a) => a !== '--');
  const force = args.includes('--force');
  const files = args.filter((a) => a !== '--force');
  if (files.length !== 1 || files[0]!.startsWith('-')) fail('usage: npm run restore -- <backup.tar.gz> [--force]');
  const file = path.resolve(files[0]!);
  const r = await restoreEmbedded(
    file,
    config.dataDir,
    force,
    listMigrations().map((m) => m.name),
  );
  const rows = Object.values(r.manifest.tables).reduce((a, b) => a + b, 0);
  process.stdout.write(
    `Restored ${file} (taken ${r.manifest.createdAt}, migration level ${r.manifest.migrationLevel ?? 'none'}, ${rows} rows checked) into ${config.dataDir}\n` +
      (r.movedAside ? `  the database that was there is kept in ${r.movedAside}\n` : '') +
      '  start the server as usual; it applies any newer migrations.\n',
  );
} catch (err) {
  fail(err instanceof OpsError || err instanceof ConfigError || err instanceof PrivateDataDirError ? err.message : (err as Error).message);
}
