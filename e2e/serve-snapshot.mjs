#!/usr/bin/env node
// The e2e web server: a snapshot of the app (src, index.html, configs) copied beside the run's database,
// built there and served from there (or one built before the run, E2E_SNAPSHOT). Other people building
// dist/web in the shared tree during a run cannot change the assets under this server mid-run. The server is
// the build `npm start` runs (dist/server, scripts/build-server.mjs), with its node flags, so the browser tests
// check what ships: the bundle, its rewritten file paths and the embedded database's cluster template.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { LEAN_MALLOC, LEAN_NODE_FLAGS } from '../scripts/server-process.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Copies the app beside `dir` and builds it there; a file `built` marks a finished build. */
function buildSnapshot(dir) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  for (const entry of ['src', 'scripts', 'public', 'index.html', 'verify.html', 'package.json', 'vite.config.ts', 'tsconfig.json']) {
    fs.cpSync(path.join(root, entry), path.join(dir, entry), { recursive: true });
  }
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  const build = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: dir,
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
  const server = spawnSync(process.execPath, [path.join(dir, 'scripts/build-server.mjs')], { cwd: dir, stdio: 'inherit' });
  if (server.status !== 0) process.exit(server.status ?? 1);
  fs.writeFileSync(path.join(dir, 'built'), '');
}

// `--build-only <dir>`: build a snapshot that several runs then serve (E2E_SNAPSHOT=<dir>), as CI's two
// browser parts do: one build instead of one per part, and before the lanes rather than inside them. The
// servers only read it; each keeps its data under its own DATA_DIR.
if (process.argv[2] === '--build-only') {
  buildSnapshot(path.resolve(process.argv[3] ?? 'e2e/artifacts/snapshot'));
  process.exit(0);
}

const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error('DATA_DIR is not set');
const shared = process.env.E2E_SNAPSHOT ? path.resolve(process.env.E2E_SNAPSHOT) : null;
// A snapshot that an earlier version of this script built holds no server build (dist/server) and could start no
// server: refused with the command that builds one.
if (shared && !['built', 'dist/server/main.js'].every((f) => fs.existsSync(path.join(shared, f)))) {
  throw new Error(`E2E_SNAPSHOT=${shared} holds no finished build (node e2e/serve-snapshot.mjs --build-only ${shared})`);
}
const snap = shared ?? path.join(dataDir, 'app');
if (!shared) buildSnapshot(snap);

// With TEST_DATABASE_URL (as in CI's second pass) the browser tests run the server on a fresh PostgreSQL
// database on that server, dropped when the run ends; otherwise on PGlite under DATA_DIR.
async function onServer(statement) {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
// A mail catcher, as a mail server would be in production: the server sends over real SMTP, and each
// message lands as an .eml file in DATA_DIR/smtp-inbox for the tests to read (e2e/helpers.ts). Without
// SMTP the server would keep .eml files itself, but those leave out secrets such as reset links.
const inbox = path.join(dataDir, 'smtp-inbox');
fs.mkdirSync(inbox, { recursive: true });
let received = 0;
const catcher = new SMTPServer({
  logger: false,
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  disableReverseLookup: true,
  onData(stream, _session, cb) {
    const chunks = [];
    stream.on('data', (c) => chunks.push(c));
    stream.on('end', () => {
      const name = `${Date.now()}-${String(++received).padStart(5, '0')}.eml`;
      fs.writeFileSync(path.join(inbox, `${name}.partial`), Buffer.concat(chunks));
      fs.renameSync(path.join(inbox, `${name}.partial`), path.join(inbox, name));
      cb(null, 'Queued');
    });
  },
});
await new Promise((resolve) => catcher.listen(0, '127.0.0.1', resolve));

// Every request logged (they are at debug), so that e2e/log-secrets.teardown.ts sees each request's line.
const env = { LOG_LEVEL: 'debug', ...process.env, DATA_DIR: dataDir, SMTP_URL: `smtp://127.0.0.1:${catcher.server.address().port}` };
let dropDatabase = async () => {};
if (process.env.TEST_DATABASE_URL) {
  const name = `trc_e2e_${randomBytes(6).toString('hex')}`;
  await onServer(`CREATE DATABASE ${name}`);
  const url = new URL(process.env.TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  env.DATABASE_URL = url.toString();
  dropDatabase = () => onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
}

const server = spawn(process.execPath, [...LEAN_NODE_FLAGS, path.join(snap, 'dist/server/main.js')], {
  cwd: snap,
  stdio: ['inherit', 'pipe', 'pipe'],
  env: { ...LEAN_MALLOC, ...env },
});
// The server's log also goes to DATA_DIR/server.log, which e2e/log-secrets.teardown.ts greps for secrets.
const serverLog = fs.createWriteStream(path.join(dataDir, 'server.log'));
server.stdout.on('data', (c) => (process.stdout.write(c), serverLog.write(c)));
server.stderr.on('data', (c) => (process.stderr.write(c), serverLog.write(c)));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', async (code, signal) => {
  await dropDatabase();
  process.exit(code ?? (signal ? 1 : 0));
});
