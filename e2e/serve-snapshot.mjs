#!/usr/bin/env node
// The e2e web server: a snapshot of the app (src, index.html, configs) copied beside the run's database,
// built there and served from there. Other people building dist/web in the shared tree during a run
// cannot pull the assets from under this server (it lists its static files at start).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error('DATA_DIR is not set');
const snap = path.join(dataDir, 'app');

fs.rmSync(snap, { recursive: true, force: true });
fs.mkdirSync(snap, { recursive: true });
for (const entry of ['src', 'index.html', 'package.json', 'vite.config.ts', 'tsconfig.json']) {
  fs.cpSync(path.join(root, entry), path.join(snap, entry), { recursive: true });
}
fs.symlinkSync(path.join(root, 'node_modules'), path.join(snap, 'node_modules'), 'dir');

const build = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
  cwd: snap,
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(build.status ?? 1);

const server = spawn(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), path.join(snap, 'src/server/main.ts')], {
  cwd: snap,
  stdio: 'inherit',
  env: { ...process.env, DATA_DIR: dataDir },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
