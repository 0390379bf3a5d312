#!/usr/bin/env node
// `npm test`: the API and unit tests (Vitest), then the browser tests (Playwright with Debian's Chromium)
// when the project has any. TEST_DATABASE_URL switches both from PGlite to PostgreSQL; that second pass
// skips what cannot differ on another database engine (see postgresPass below).
//
// TEST_LANE picks a part, for CI's lanes (.ci/run, docs/decisions/0017-ci-passes.md):
//   (unset)  both parts, as above (a developer's `npm test`);
//   vitest   the Vitest part only;
//   browser  every browser project, once, on the database TEST_DATABASE_URL names (else PGlite).
// TEST_SHARD=i/n runs the i-th of n parts of the Vitest files (Vitest's --shard), so CI can hand the
// PostgreSQL pass's files to whichever lane is free. TEST_BROWSER_PART=1|2 runs one of two parts of the
// browser projects (BROWSER_FIRST_PART below, or every other project), each on its own server, so that
// CI's two lanes can share the browser tests too.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (pkg, file) => path.join(root, 'node_modules', pkg, file);
const args = process.argv.slice(2);
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const lane = process.env.TEST_LANE ?? '';
if (!['', 'vitest', 'browser'].includes(lane)) {
  console.error(`TEST_LANE=${lane}: expected vitest or browser (or unset for both)`);
  process.exit(2);
}

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
const UI_ONLY_PROJECTS = ['screens', 'public-host'];
/**
 * Projects that make documentation rather than check the product: the user guide's screenshots, taken from
 * the demo server (`npm run user-guide`). The screens project visits the same screens with checks; this one
 * takes about ten minutes beside the other tests, so `npm test` leaves it out
 * (docs/decisions/0048-ci-under-thirty-minutes.md).
 */
const DOCS_PROJECTS = ['user-guide'];
/**
 * The first of the two browser parts, about as long as the second plus Vitest's PostgreSQL halves (which the
 * lane of the first part takes next; .ci/run). The second part is every project not named here, so that a
 * new project always runs in one of them. Quiet times of 2026-11-26 (seconds): screens 304, user-guide 91,
 * the chromium project 129, insight 50, visitor-page and public-host 8; the second part about 500.
 */
const BROWSER_FIRST_PART = ['chromium', 'insight', 'public-host', 'screens', 'visitor-page'];
const browserPart = process.env.TEST_BROWSER_PART ?? '';
if (!['', '1', '2'].includes(browserPart)) {
  console.error(`TEST_BROWSER_PART=${browserPart}: expected 1 or 2 (or unset for every browser project)`);
  process.exit(2);
}

/**
 * A test file that reaches the database only in ways no engine can change (PGlite is PostgreSQL's own code;
 * the engines differ in connections, concurrency and COPY) says so on its first line, with its reason:
 * `// @engine-independent: <reason>`. The PostgreSQL pass leaves it out (docs/decisions/0048-ci-under-thirty-minutes.md).
 */
const ENGINE_INDEPENDENT = /^\/\/ @engine-independent: /;

function databaseFreeTestFiles() {
  return fs
    .readdirSync(path.join(root, 'test'))
    .filter((f) => f.endsWith('.test.ts'))
    .filter((f) => {
      const text = fs.readFileSync(path.join(root, 'test', f), 'utf8');
      return ENGINE_INDEPENDENT.test(text) || !DATABASE_MARKERS.test(text);
    })
    .map((f) => `test/${f}`);
}

if (lane !== 'browser') {
  const vitestArgs = ['run', ...args];
  if (process.env.TEST_SHARD) vitestArgs.push(`--shard=${process.env.TEST_SHARD}`);
  if (onPostgres && args.length === 0) {
    const skipped = databaseFreeTestFiles();
    console.log(
      `PostgreSQL pass: leaving out ${skipped.length} test files that reach no database or none that differs (${skipped.join(', ')})`,
    );
    for (const f of skipped) vitestArgs.push('--exclude', f);
  }
  run('vitest run', bin('vitest', 'vitest.mjs'), vitestArgs);
}

const e2eDir = path.join(root, 'e2e');
const hasSpecs =
  fs.existsSync(path.join(root, 'playwright.config.ts')) &&
  fs.readdirSync(e2eDir, { recursive: true }).some((f) => String(f).endsWith('.spec.ts'));
if (hasSpecs && args.length === 0 && lane !== 'vitest') {
  if (!fs.existsSync('/usr/bin/chromium')) {
    console.error("The browser tests need Debian's Chromium: apt-get install -y chromium (no browser is downloaded).");
    process.exit(1);
  }
  const playwrightArgs = ['test'];
  const config = fs.readFileSync(path.join(root, 'playwright.config.ts'), 'utf8');
  // 'setup' runs wherever a project depends on it.
  const allProjects = [...config.matchAll(/name: '([\w-]+)'/g)].map((m) => m[1]).filter((p) => p !== 'setup' && !DOCS_PROJECTS.includes(p));
  // The browser lane runs every project (or one part of them), whatever the database; the PostgreSQL pass
  // without a lane leaves out the projects that only look at screens.
  let projects = allProjects;
  if (browserPart) {
    projects = allProjects.filter((p) => BROWSER_FIRST_PART.includes(p) === (browserPart === '1'));
    console.log(`Browser part ${browserPart}: projects ${projects.join(', ')}`);
  } else if (onPostgres && lane !== 'browser') {
    projects = allProjects.filter((p) => !UI_ONLY_PROJECTS.includes(p));
    console.log(`PostgreSQL pass: browser projects ${projects.join(', ')} (left out: ${UI_ONLY_PROJECTS.join(', ')})`);
  }
  for (const p of projects) playwrightArgs.push('--project', p);
  run('playwright test', bin('@playwright/test', 'cli.js'), playwrightArgs);
}
