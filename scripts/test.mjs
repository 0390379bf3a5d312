#!/usr/bin/env node
// `npm test`: the API and unit tests (Vitest), then the browser tests (Playwright with Debian's Chromium)
// when the project has any. TEST_DATABASE_URL switches both from PGlite to PostgreSQL; that second pass
// skips what cannot differ on another database engine (see postgresPass below).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (pkg, file) => path.join(root, 'node_modules', pkg, file);
const args = process.argv.slice(2);
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

function run(label, cmd, cmdArgs) {
  console.log(`\n> ${label}`);
  const r = spawnSync(process.execPath, [cmd, ...cmdArgs], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

/**
 * On PostgreSQL, a test file that reaches no database code (no app, no database helper, no server
 * process) runs exactly as on PGlite: it is left out. So are the browser projects that only look at
 * screens (screenshots of every screen, host-name routing), whose server side the API tests cover on
 * PostgreSQL; the flows that write data still run against a PostgreSQL-backed server.
 */
const DATABASE_MARKERS = /helpers\/(app|database|server-process)|src\/server\/(db|app)|TEST_DATABASE_URL/;
const UI_ONLY_PROJECTS = ['screens', 'public-host', 'user-guide'];

function databaseFreeTestFiles() {
  return fs
    .readdirSync(path.join(root, 'test'))
    .filter((f) => f.endsWith('.test.ts'))
    .filter((f) => !DATABASE_MARKERS.test(fs.readFileSync(path.join(root, 'test', f), 'utf8')))
    .map((f) => `test/${f}`);
}

const vitestArgs = ['run', ...args];
if (onPostgres && args.length === 0) {
  const skipped = databaseFreeTestFiles();
  console.log(`PostgreSQL pass: leaving out ${skipped.length} test files that reach no database (${skipped.join(', ')})`);
  for (const f of skipped) vitestArgs.push('--exclude', f);
}
run('vitest run', bin('vitest', 'vitest.mjs'), vitestArgs);

const e2eDir = path.join(root, 'e2e');
const hasSpecs = fs.existsSync(path.join(root, 'playwright.config.ts'))
  && fs.readdirSync(e2eDir, { recursive: true }).some((f) => String(f).endsWith('.spec.ts'));
if (hasSpecs && args.length === 0) {
  if (!fs.existsSync('/usr/bin/chromium')) {
    console.error('The browser tests need Debian\'s Chromium: apt-get install -y chromium (no browser is downloaded).');
    process.exit(1);
  }
  const playwrightArgs = ['test'];
  if (onPostgres) {
    const config = fs.readFileSync(path.join(root, 'playwright.config.ts'), 'utf8');
    const projects = [...config.matchAll(/name: '([\w-]+)'/g)].map((m) => m[1]).filter((p) => !UI_ONLY_PROJECTS.includes(p));
    console.log(`PostgreSQL pass: browser projects ${projects.join(', ')} (left out: ${UI_ONLY_PROJECTS.join(', ')})`);
    for (const p of projects) playwrightArgs.push('--project', p);
  }
  run('playwright test', bin('@playwright/test', 'cli.js'), playwrightArgs);
}
