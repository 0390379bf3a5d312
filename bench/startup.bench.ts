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
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** RSS in MB of `pid` and of the processes it started (start.mjs runs the server as its child). */
function treeRss(pid: number): number {
  let kb = 0;
  const walk = (p: number) => {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
      for (const c of fs.readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) walk(Number(c));
    } catch {
      // gone
    }
  };
  walk(pid);
  return kb / 1024;
}

/** The server's process alone: start.mjs's child (start.mjs itself only waits). */
function serverRss(startPid: number): number {
  try {
    const kids = fs.readFileSync(`/proc/${startPid}/task/${startPid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    return kids.length ? treeRss(Number(kids[0])) : 0;
  } catch {
    return 0;
  }
}

interface Start {
  ms: number;
  peakMb: number;
  idleMb: number;
}

async function timeToReady(dataDir: string, databaseUrl = ''): Promise<Start> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: databaseUrl },
    stdio: 'ignore',
  });
  let peakMb = 0;
  const sampler = setInterval(() => (peakMb = Math.max(peakMb, serverRss(child.pid!))), 100);
  try {
    for (;;) {
      if (performance.now() - started > 120_000) throw new Error('server not ready within 120 s');
      try {
        const res = await fetch(`http://127.0.0.1:${port}/readyz`);
        if (res.status === 200) {
          const ms = performance.now() - started;
          await new Promise((r) => setTimeout(r, 5_000));
          return { ms, peakMb, idleMb: serverRss(child.pid!) };
        }
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    clearInterval(sampler);
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

export default async function startup(log: (line: string) => void): Promise<void> {
  // Build outside the measurement: a stale build would be timed (and its bundler's memory counted) as part
  // of the first start, since start.mjs rebuilds what is older than its sources.
  const web = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'ignore',
  });
  if (web.status !== 0) throw new Error('vite build failed');
  const build = spawnSync(process.execPath, [path.join(root, 'scripts/build-server.mjs')], { cwd: root, stdio: 'ignore' });
  if (build.status !== 0) throw new Error('scripts/build-server.mjs failed');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-bench-start-'));
  try {
    const load = () => `load average ${os.loadavg()[0]!.toFixed(2)}`;
    const first = await timeToReady(dataDir);
    log(`first start (new data dir): ${(first.ms / 1000).toFixed(2)} s; ${load()}`);
    log(`  memory: peak ${first.peakMb.toFixed(0)} MB (target ≤ 400), 5 s after ready ${first.idleMb.toFixed(0)} MB`);
    const second = await timeToReady(dataDir);
    log(`second start: ${(second.ms / 1000).toFixed(2)} s (target < 2 s); ${load()}`);
    log(`  memory: idle ${second.idleMb.toFixed(0)} MB (target ≤ 200), peak ${second.peakMb.toFixed(0)} MB`);
    await onPostgres(dataDir, log, load);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The server on a scratch PostgreSQL database: started once to migrate it, measured at the second start. */
async function onPostgres(dataDir: string, log: (line: string) => void, load: () => string): Promise<void> {
  const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `trc_bench_start_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (err) {
    log(`PostgreSQL: skipped (${serverUrl} unreachable: ${(err as Error).message})`);
    return;
  }
  try {
    await admin.query(`create database ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    await timeToReady(dataDir, url.toString());
    const second = await timeToReady(dataDir, url.toString());
    log(`PostgreSQL, second start: ${(second.ms / 1000).toFixed(2)} s; ${load()}`);
    log(`  memory: idle ${second.idleMb.toFixed(0)} MB (target ≤ 150), peak ${second.peakMb.toFixed(0)} MB`);
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
