/**
 * `npm run backup [-- <file>]`: the embedded database into one file (default trc-backup-<date>.tar.gz in
 * DATA_DIR/backups). With DATABASE_URL set it says to use pg_dump instead. One line and exit 1 on errors.
 */
import path from 'node:path';
import { ConfigError, loadConfig } from '../config';
import { backupEmbedded, defaultBackupName } from '../ops/backup';
import { makeDataDirPrivate, PrivateDataDirError, useOwnerOnlyUmask } from '../db/private-files';
import { OpsError } from '../ops/embedded';

function fail(message: string): never {
  process.stderr.write(`backup: ${message}\n`);
  process.exit(1);
}

useOwnerOnlyUmask();
try {
  const config = loadConfig();
  if (config.databaseUrl) {
    fail('DATABASE_URL is set: back up PostgreSQL with pg_dump (see docs/operations.md, "Backups")');
  }
  makeDataDirPrivate(config.dataDir);
  const args = process.argv.slice(2).filter((a) => a !== '--');
  if (args.length > 1 || args.some((a) => a.startsWith('-'))) fail('usage: npm run backup [-- <file.tar.gz>]');
  const file = path.resolve(args[0] ?? path.join(config.dataDir, 'backups', defaultBackupName()));
  const m = await backupEmbedded(config.dataDir, file, process.env.npm_package_version ?? 'unknown');
  const rows = Object.values(m.tables).reduce((a, b) => a + b, 0);
  process.stdout.write(
    `Backed up ${config.dataDir} to ${file}\n  migration level ${m.migrationLevel ?? 'none'}, ${Object.keys(m.tables).length} tables, ${rows} rows, ${m.createdAt}\n`,
  );
} catch (err) {
  fail(err instanceof OpsError || err instanceof ConfigError || err instanceof PrivateDataDirError ? err.message : (err as Error).message);
}
