#!/usr/bin/env node
// `npm start`: builds the web app and the server when their build is missing or older than their sources,
// then runs the built server with plain node (no tsx). After the first start nothing is rebuilt, so the
// server is up in about a second.
//
// `node scripts/start.mjs --cli <migrate|admin> [args…]` (npm run db:migrate / npm run admin) does the
// same for the server only and runs that command instead.
//
// `node scripts/start.mjs --demo` (npm run demo) runs the server on its own embedded database under
// data/demo (DATABASE_URL is ignored), filled with demo data on the first start (src/server/demo).
//
// Each build says what it is doing and how long it took ("Building the web app… done in 41.2 s",
// scripts/start-steps.mjs); the server then says how its database is prepared and where it is ready. The
// server writes its own log: readable lines on a terminal, JSON lines anywhere else (a service manager, a
// container, a pipe), or as LOG_FORMAT says (src/server/lib/log.ts).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LEAN_MALLOC, LEAN_NODE_FLAGS } from './server-process.mjs';
import { runStep } from './start-steps.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const builtIndex = path.join(root, 'dist/web/index.html');
const builtServer = path.join(root, 'dist/server/main.js');

function newestMtime(p) {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

function stale(built, sources) {
  if (!fs.existsSync(built)) return true;
  const builtAt = fs.statSync(built).mtimeMs;
  return sources.some((s) => newestMtime(path.join(root, s)) > builtAt);
}

// Without sources (an image built with only dist/ and node_modules) there is nothing to rebuild.
const hasSources = fs.existsSync(path.join(root, 'src/server/main.ts'));
const webStale =
  fs.existsSync(path.join(root, 'index.html')) &&
  stale(builtIndex, [
    'src/web',
    'src/shared',
    'index.html',
    'verify.html',
    'public',
    // the build's own steps (the prerendered pages, the compressed files, the screens' preloads)
    'vite.config.ts',
    'scripts/vite-after-build.ts',
    'scripts/vite-precompress.ts',
    'scripts/vite-prerender.ts',
    'scripts/vite-route-preloads.ts',
  ]);
const serverStale = hasSources && stale(builtServer, ['src/server', 'src/shared', 'scripts/build-server.mjs']);

const cliAt = process.argv.indexOf('--cli');
const cli = cliAt >= 0 ? process.argv[cliAt + 1] : undefined;
const CLIS = ['migrate', 'admin', 'backup', 'restore', 'move-to-postgres'];
if (cli !== undefined && !CLIS.includes(cli)) {
  console.error(`start: unknown --cli ${cli} (${CLIS.join(', ')})`);
  process.exit(2);
}

// The first start, or one after the sources changed: the builds, each on a line of its own.
if (!cli && webStale) {
  const vite = path.join(root, 'node_modules/vite/bin/vite.js');
  const status = runStep('Building the web app', [vite, 'build', '--logLevel', 'warn'], { cwd: root });
  if (status !== 0) process.exit(status);
}
if (serverStale) {
  const status = runStep('Building the server', [path.join(root, 'scripts/build-server.mjs')], { cwd: root });
  if (status !== 0) process.exit(status);
}

const demo = !cli && process.argv.includes('--demo');
const entry = cli ? path.join(root, `dist/server/cli/${cli}.js`) : builtServer;
const args = cli ? process.argv.slice(cliAt + 2) : demo ? ['--demo'] : [];
const env = demo ? { ...process.env, DATA_DIR: path.join(root, 'data/demo'), DATABASE_URL: '' } : process.env;
const child = spawn(process.execPath, [...LEAN_NODE_FLAGS, entry, ...args], {
  cwd: root,
  env: { ...LEAN_MALLOC, ...env },
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
