/**
 * The server process: configuration, private DATA_DIR, database, migrations, background workers, listen.
 * Anything that stops it at start (bad variable, DATA_DIR open to others, unreachable database) is said in
 * one line with a non-zero exit.
 */
import { sql } from 'drizzle-orm';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { rowsOf } from './db/client';
import { openConfiguredDatabase } from './db/open';
import { makeDataDirPrivate, PrivateDataDirError, useOwnerOnlyUmask } from './db/private-files';
import { migrate } from './db/migrate';
import { startBackgroundWork } from './background';
import { listenMetrics } from './lib/metrics';
import { holdDataDir } from './ops/embedded';
import { firstRunNotice } from './first-run-notice';
import { demoSizeFrom, prepareDemo } from './demo/demo-start';
import { configuredLogStream, seconds, startLog } from './lib/log';
import { startWarnings } from './start-warnings';

function fail(message: string): never {
  process.stderr.write(`test-report-center: ${message}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  // Before anything is written: whatever this process creates is its user's only (db/private-files.ts).
  useOwnerOnlyUmask();
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
  // What an older version (or a copy, or an unpacked backup) left readable by others is closed on every start.
  let madePrivate;
  try {
    madePrivate = makeDataDirPrivate(config.dataDir);
  } catch (err) {
    if (err instanceof PrivateDataDirError) fail(err.message);
    throw err;
  }
  // What the server does while it starts, in the log's own format: the first start on the embedded
  // database (making its cluster, every migration) takes a while, and says so.
  const logStream = configuredLogStream(config);
  const say = startLog(config.logLevel, logStream);
  const preparing = performance.now();
  say(
    'info',
    config.databaseUrl
      ? `Preparing the database: PostgreSQL at ${redact(config.databaseUrl)}…`
      : `Preparing the database: the embedded one under ${config.dataDir}…`,
  );
  const database = await openConfiguredDatabase(config).catch((err: Error) =>
    fail(
      config.databaseUrl
        ? `Cannot reach the database at DATABASE_URL (${redact(config.databaseUrl)}): ${err.message}`
        : `Cannot open the embedded database under DATA_DIR (${config.dataDir}): ${err.message}`,
    ),
  );
  // On the embedded database, DATA_DIR/server.lock keeps backup, restore and move-to-postgres away (ops/embedded.ts).
  const releaseDataDir = database.kind === 'pglite' ? holdDataDir(config.dataDir) : () => undefined;
  const applied = await migrate(database).catch((err: Error) => fail(err.message));
  say(
    'info',
    `Database ready in ${seconds(performance.now() - preparing)}${applied.length ? ` (${applied.length} migrations applied)` : ', up to date'}`,
  );
  // `npm run demo` (scripts/start.mjs --demo): demo data on the first start, the accounts on every start.
  const demoLines = process.argv.includes('--demo')
    ? await prepareDemo(database, config, demoSizeFrom(process.env), (line) => process.stdout.write(`${line}\n`)).catch((err: Error) =>
        fail(`demo: ${err.message}`),
      )
    : null;

  const app = await buildApp({ config, database, logStream });
  for (const warning of startWarnings(config)) app.log.warn(warning);
  if (madePrivate.repaired > 0) {
    app.log.warn(
      { dataDir: config.dataDir, repaired: madePrivate.repaired, checked: madePrivate.checked },
      `${madePrivate.repaired} files and folders under DATA_DIR were open to other users; now owner-only (0600 files, 0700 folders)`,
    );
  }
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
  app.log.info(`Test Report Center is ready at ${address} (database: ${database.kind}), started in ${seconds(process.uptime() * 1000)}`);
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
