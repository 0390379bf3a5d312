/**
 * `npm run move-to-postgres -- --to postgres://user:pass@host:5432/db`: the embedded database (DATA_DIR)
 * into an empty PostgreSQL database (ops/move-to-postgres.ts). Stop the server first. Afterwards set
 * DATABASE_URL to that database and start the server. One line and exit 1 on errors.
 */
import { ConfigError, loadConfig } from '../config';
import { makeDataDirPrivate, PrivateDataDirError, useOwnerOnlyUmask } from '../db/private-files';
import { OpsError } from '../ops/embedded';
import { moveToPostgres } from '../ops/move-to-postgres';

function fail(message: string): never {
  process.stderr.write(`move-to-postgres: ${message}\n`);
  process.exit(1);
}

useOwnerOnlyUmask();
try {
  const args = process.argv.slice(2).filter((a) => a !== '--');
  const at = args.indexOf('--to');
  const to = at >= 0 ? args[at + 1] : undefined;
  if (!to || !/^postgres(ql)?:\/\//.test(to) || args.length !== 2)
    fail('usage: npm run move-to-postgres -- --to postgres://user:pass@host:5432/db');
  const config = loadConfig({ ...process.env, DATABASE_URL: '' });
  makeDataDirPrivate(config.dataDir);
  process.stdout.write(`Copying the embedded database in ${config.dataDir} to PostgreSQL…\n`);
  const r = await moveToPostgres(config.dataDir, to, (line) => process.stdout.write(`${line}\n`));
  const total = Object.values(r.tables).reduce((a, b) => a + b, 0);
  process.stdout.write(
    `Done: ${Object.keys(r.tables).length} tables, ${total} rows, ${r.sequences} sequences; row counts checked.\n` +
      'Now set DATABASE_URL to that database and start the server. The embedded data in DATA_DIR is left as it was.\n',
  );
} catch (err) {
  fail(err instanceof OpsError || err instanceof ConfigError || err instanceof PrivateDataDirError ? err.message : (err as Error).message);
}
