/** `npm run db:migrate`: applies pending migrations to the configured database and exits. */
import { ConfigError, loadConfig } from '../config';
import { migrate } from '../db/migrate';
import { openConfiguredDatabase } from '../db/open';
import { makeDataDirPrivate, PrivateDataDirError, useOwnerOnlyUmask } from '../db/private-files';

useOwnerOnlyUmask();
try {
  const config = loadConfig();
  if (!config.databaseUrl) makeDataDirPrivate(config.dataDir);
  const database = await openConfiguredDatabase(config);
  const applied = await migrate(database);
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Nothing to apply; the database is up to date.');
  await database.close();
} catch (err) {
  console.error(`db:migrate: ${err instanceof ConfigError || err instanceof PrivateDataDirError ? err.message : (err as Error).message}`);
  process.exit(1);
}
