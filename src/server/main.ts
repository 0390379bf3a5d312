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
import { listenMetrics } from './lib/metrics';
import { holdDataDir } from './ops/embedded';
import { firstRunNotice } from './first-run-notice';
import { demoSizeFrom, prepareDemo } from './demo/demo-start';

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
  // On the embedded database, DATA_DIR/server.lock keeps backup, restore and move-to-postgres away (ops/embedded.ts).
  const releaseDataDir = database.kind === 'pglite' ? holdDataDir(config.dataDir) : () => undefined;
  await migrate(database).catch((err: Error) => fail(err.message));
  // `npm run demo` (scripts/start.mjs --demo): demo data on the first start, the accounts on every start.
  const demoLines = process.argv.includes('--demo')
    ? await prepareDemo(database, config, demoSizeFrom(process.env), (line) => process.stdout.write(`${line}\n`)).catch((err: Error) =>
        fail(`demo: ${err.message}`),
      )
    : null;

  const app = await buildApp({ config, database });
  const stopBackground = await startBackgroundWork(app);
  const metricsServer =
    app.ctx.metrics && config.metricsPort
      ? await listenMetrics(app.ctx.metrics, config.metricsPort, config.host, config.metricsToken).catch((err: Error) =>
          fail(`Cannot listen on ${config.host}:${config.metricsPort} (METRICS_PORT): ${err.message}`),
        )
      : undefined;

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await stopBackground();
    metricsServer?.close();
    await app.close();
    await database.close();
    releaseDataDir();
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
  const [anyAccount] = rowsOf<{ present: boolean }>(await database.db.execute(sql`select exists (select 1 from users) as present`));
  if (demoLines) process.stdout.write(`\nDemo: open ${address}\n${demoLines.join('\n')}\n\n`);
  else if (!anyAccount?.present) {
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
