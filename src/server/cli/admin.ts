/** `npm run admin -- <command>`: see USAGE in admin-commands.ts. One line and exit code 1 on any error. */
import { text } from 'node:stream/consumers';
import { ConfigError, loadConfig } from '../config';
import { migrate } from '../db/migrate';
import { openConfiguredDatabase } from '../db/open';
import { makeDataDirPrivate, PrivateDataDirError, useOwnerOnlyUmask } from '../db/private-files';
import { CliError, parseCommand, runAdminCommand } from './admin-commands';

function fail(message: string): never {
  process.stderr.write(`admin: ${message}\n`);
  process.exit(1);
}

useOwnerOnlyUmask();
let cmd;
try {
  cmd = parseCommand(process.argv.slice(2));
} catch (err) {
  fail((err as Error).message);
}

try {
  const config = loadConfig();
  if (!config.databaseUrl) makeDataDirPrivate(config.dataDir);
  const database = await openConfiguredDatabase(config).catch((err: Error) => {
    throw new CliError(`cannot open the database (${config.databaseUrl ? 'DATABASE_URL' : 'DATA_DIR'}): ${err.message}`);
  });
  try {
    await migrate(database);
    const lines = await runAdminCommand(cmd, database, () => text(process.stdin));
    for (const line of lines) process.stdout.write(`${line}\n`);
  } finally {
    await database.close();
  }
} catch (err) {
  fail(err instanceof CliError || err instanceof ConfigError || err instanceof PrivateDataDirError ? err.message : (err as Error).message);
}
