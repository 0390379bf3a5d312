/**
 * The server as `npm start` runs it: `node scripts/start.mjs`, which runs the built server
 * (dist/server/main.js) as its child with the lean V8 and malloc settings (decision 0033). The memory
 * benches measure that child, not tsx's or a bench's own flags.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../test/helpers/free-port';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Builds the web app and the server outside any measurement: a stale build would be timed (and its
 * bundler's memory counted) as part of a start, since start.mjs rebuilds what is older than its sources.
 */
export function buildForStart(): void {
  const web = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'ignore',
  });
  if (web.status !== 0) throw new Error('vite build failed');
  const server = spawnSync(process.execPath, [path.join(root, 'scripts/build-server.mjs')], { cwd: root, stdio: 'ignore' });
  if (server.status !== 0) throw new Error('scripts/build-server.mjs failed');
}

/** RSS in MB of `pid` and of the processes it started. */
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

export interface NpmStarted {
  url: string;
  /** milliseconds from the spawn until /readyz answered 200 */
  readyMs: number;
  /** the server's resident memory now, MB: start.mjs's child (start.mjs itself only waits) */
  rssMb(): number;
  /** the highest `rssMb()` seen by a 100 ms sampler since the spawn or the last `resetPeak()` */
  peakMb(): number;
  resetPeak(): void;
  stop(): Promise<void>;
}

/** `npm start` on `dataDir` (and PostgreSQL at `databaseUrl` when given), answered once /readyz is 200. */
export async function npmStart(opts: { dataDir: string; databaseUrl?: string; env?: Record<string, string> }): Promise<NpmStarted> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: url,
      DATA_DIR: opts.dataDir,
      LOG_LEVEL: 'warn',
      DATABASE_URL: opts.databaseUrl ?? '',
      REDIS_URL: '',
      SMTP_URL: '',
      ...opts.env,
    },
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const rssMb = () => {
    try {
      const kids = fs.readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
      return kids.length ? treeRss(Number(kids[0])) : 0;
    } catch {
      return 0;
    }
  };
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 100);
  const stop = async () => {
    clearInterval(sampler);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  for (;;) {
    if (child.exitCode !== null) {
      clearInterval(sampler);
      throw new Error(`npm start exited with ${child.exitCode}`);
    }
    if (performance.now() - started > 120_000) {
      await stop();
      throw new Error('server not ready within 120 s');
    }
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    readyMs: performance.now() - started,
    rssMb,
    peakMb: () => Math.max(peak, rssMb()),
    resetPeak: () => (peak = 0),
    stop,
  };
}
