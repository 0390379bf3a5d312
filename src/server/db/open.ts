import type { Config } from '../config';
import { openDatabase, type Database } from './client';

/** PostgreSQL when DATABASE_URL is set, else PGlite under DATA_DIR. */
export function openConfiguredDatabase(config: Config): Promise<Database> {
  return openDatabase(config.databaseUrl ? { url: config.databaseUrl } : { dataDir: config.dataDir });
}
