/**
 * The server process: configuration, database, migrations, background workers, listen. Anything that
 * stops it at start (bad variable, unreachable database) is said in one line with a non-zero exit.
 */
import { sql } from 'drizzle-orm';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { rowsOf } from './db/client';
import { openConfiguredDatabase } from './db/open';
import { migrate } from './db/migrate';
import { startBackgroundWork } from './background';
import { firstRunNotice } from './first-run-notice';

function fail(message: string): never {
  process.stderr.write(`test-report-center: ${message}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
  const database = await openConfiguredDatabase(config).catch((err: Error) =>
    fail(
      config.databaseUrl
        ? `Cannot reach the database at DATABASE_URL (${redact(config.databaseUrl)}): ${err.message}`
        : `Cannot open the embedded database under DATA_DIR (${config.dataDir}): ${err.message}`,
    ),
  );
  await migrate(database).catch((err: Error) => fail(err.message));

  const app = await buildApp({ config, database });
  const stopBackground = await startBackgroundWork(app);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await stopBackground();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    fail(`Cannot listen on ${config.host}:${config.port} (PORT/HOST): ${(err as Error).message}`);
  }
  const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const address = `http://${shown}:${config.port}`;
  app.log.info(`Test Report Center is ready at ${address} (database: ${database.kind})`);
  const [anyAccount] = rowsOf<{ present: boolean }>(
    await database.db.execute(sql`select exists (select 1 from users) as present`),
  );
  if (!anyAccount?.present) {
    const notice = firstRunNotice(config.host, address);
    app.log[notice.level](notice.message);
  }
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'unparsable URL';
  }
}

main().catch((err: Error) => fail(err.stack ?? err.message));
