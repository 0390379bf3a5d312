/**
 * `npm start` on the embedded database: time from spawn until /readyz answers 200, for the first start
 * (fresh DATA_DIR: PGlite initdb and migrations; the web and server builds are reused if present, built
 * once beforehand otherwise) and a second start. `npm start` runs the built server (node
 * dist/server/main.js), not tsx. Target (docs/product.md §7): under 2 s after the first start.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

async function timeToReady(dataDir: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '' },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      if (performance.now() - started > 120_000) throw new Error('server not ready within 120 s');
      try {
        const res = await fetch(`http://127.0.0.1:${port}/readyz`);
        if (res.status === 200) return performance.now() - started;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

export default async function startup(log: (line: string) => void): Promise<void> {
  // Build outside the measurement: a stale build would be timed as part of the first start.
  const build = spawnSync(process.execPath, [path.join(root, 'scripts/build-server.mjs')], { cwd: root, stdio: 'ignore' });
  if (build.status !== 0) throw new Error('scripts/build-server.mjs failed');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-bench-start-'));
  try {
    const first = await timeToReady(dataDir);
    log(`first start (new data dir, migrations): ${(first / 1000).toFixed(2)} s`);
    const second = await timeToReady(dataDir);
    log(`second start: ${(second / 1000).toFixed(2)} s (target < 2 s)`);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
