#!/usr/bin/env node
// `npm test`: the API and unit tests (Vitest), then the browser tests (Playwright with Debian's Chromium)
// when the project has any. TEST_DATABASE_URL switches both from PGlite to PostgreSQL.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (pkg, file) => path.join(root, 'node_modules', pkg, file);
const args = process.argv.slice(2);

function run(label, cmd, cmdArgs) {
  console.log(`\n> ${label}`);
  const r = spawnSync(process.execPath, [cmd, ...cmdArgs], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

run('vitest run', bin('vitest', 'vitest.mjs'), ['run', ...args]);

const e2eDir = path.join(root, 'e2e');
const hasSpecs = fs.existsSync(path.join(root, 'playwright.config.ts'))
  && fs.readdirSync(e2eDir, { recursive: true }).some((f) => String(f).endsWith('.spec.ts'));
if (hasSpecs && args.length === 0) {
  if (!fs.existsSync('/usr/bin/chromium')) {
    console.error('The browser tests need Debian\'s Chromium: apt-get install -y chromium (no browser is downloaded).');
    process.exit(1);
  }
  run('playwright test', bin('@playwright/test', 'cli.js'), ['test']);
}
