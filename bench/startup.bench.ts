/**
 * `npm start` on the embedded database: time from spawn until /readyz answers 200, for the first start
 * (fresh DATA_DIR: the cluster made at build time is loaded and migrated; the web and server builds are
 * made beforehand, outside the measurement) and a second start. `npm start` runs the built server
 * (node dist/server/main.js), not tsx. Target (docs/product.md §7): under 2 s after the first start.
 *
 * And the server process's memory (RSS, sampled every 100 ms): its peak during the first start and its
 * level 5 s after /readyz at each start. Targets: ≤ 400 MB at the first start, ≤ 200 MB idle
 * (docs/decisions/0019-embedded-memory.md, 0033-server-memory.md).
 *
 * Then the same server on PostgreSQL (a scratch database on BENCH_DATABASE_URL's server, default the local
 * one; skipped when it cannot be reached): its idle RSS after a second start. Target: ≤ 150 MB.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildForStart, npmStart } from './lib/npm-start';
import type { FigureRow } from './lib/figures-table';

interface Start {
  ms: number;
  peakMb: number;
  idleMb: number;
}

async function timeToReady(dataDir: string, databaseUrl = ''): Promise<Start> {
  const server = await npmStart({ dataDir, databaseUrl });
  try {
    await new Promise((r) => setTimeout(r, 5_000));
    return { ms: server.readyMs, peakMb: server.peakMb(), idleMb: server.rssMb() };
  } finally {
    await server.stop();
  }
}

export default async function startup(
  log: (line: string) => void,
  _args: string[] = [],
  report: (row: FigureRow) => void = () => {},
): Promise<void> {
  buildForStart();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-bench-start-'));
  try {
    const load = () => `load average ${os.loadavg()[0]!.toFixed(2)}`;
    const first = await timeToReady(dataDir);
    log(`first start (new data dir): ${(first.ms / 1000).toFixed(2)} s; ${load()}`);
    log(`  memory: peak ${first.peakMb.toFixed(0)} MB (target ≤ 400), 5 s after ready ${first.idleMb.toFixed(0)} MB`);
    const second = await timeToReady(dataDir);
    log(`second start: ${(second.ms / 1000).toFixed(2)} s (target < 2 s); ${load()}`);
    log(`  memory: idle ${second.idleMb.toFixed(0)} MB (target ≤ 200), peak ${second.peakMb.toFixed(0)} MB`);
    const onPg = await onPostgres(dataDir, log, load);

    const met = (ok: boolean) => (ok ? 'met' : '**not met**');
    const mb = (x: number) => `${x.toFixed(0)} MB`;
    report({
      what: 'embedded server memory (`npm run bench -- startup`)',
      figure:
        `first start peak ${mb(first.peakMb)}; second start idle **${mb(second.idleMb)}**; ` +
        (onPg ? `PostgreSQL-backed server idle ${mb(onPg.idleMb)}` : 'PostgreSQL-backed server not measured (no PostgreSQL answered)'),
      target: onPg
        ? `≤ 400 / ≤ 200 / ≤ 150 MB — ${met(first.peakMb <= 400 && second.idleMb <= 200 && onPg.idleMb <= 150)}`
        : `≤ 400 / ≤ 200 MB — ${met(first.peakMb <= 400 && second.idleMb <= 200)}`,
    });
    const s = (x: number) => `${(x / 1000).toFixed(2)} s`;
    report({
      what: '`npm start` until `/readyz` answers, embedded database, once built',
      figure: `second start ${s(second.ms)}; first start on a fresh \`DATA_DIR\` ${s(first.ms)}`,
      target: `second start < 2 s — ${met(second.ms < 2000)}`,
    });
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The server on a scratch PostgreSQL database: started once to migrate it, measured at the second start;
 * undefined when no PostgreSQL answers.
 */
async function onPostgres(dataDir: string, log: (line: string) => void, load: () => string): Promise<Start | undefined> {
  const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `trc_bench_start_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (err) {
    log(`PostgreSQL: skipped (${serverUrl} unreachable: ${(err as Error).message})`);
    return undefined;
  }
  try {
    await admin.query(`create database ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    await timeToReady(dataDir, url.toString());
    const second = await timeToReady(dataDir, url.toString());
    log(`PostgreSQL, second start: ${(second.ms / 1000).toFixed(2)} s; ${load()}`);
    log(`  memory: idle ${second.idleMb.toFixed(0)} MB (target ≤ 150), peak ${second.peakMb.toFixed(0)} MB`);
    return second;
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
