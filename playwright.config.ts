/**
 * End-to-end tests against the real server on a fresh embedded database (a temporary DATA_DIR) on a free
 * port, after a production build of a snapshot of the app (e2e/serve-snapshot.mjs). Debian's Chromium;
 * no browser is ever downloaded.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices, type Project } from '@playwright/test';
import { TIME_SCALE } from './e2e/time-scale';

// The config is evaluated by the runner and again by each worker: the first evaluation picks the port and
// data directory and hands them on through the environment, which workers inherit.
if (!process.env.E2E_PORT) {
  process.env.E2E_PORT = execFileSync(process.execPath, [
    '-e',
    "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
  ]).toString();
}
if (!process.env.E2E_DATA_DIR) process.env.E2E_DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-e2e-'));

const PORT = Number(process.env.E2E_PORT);
const BASE_URL = `http://127.0.0.1:${PORT}`;

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const chromium = {
  ...devices['Desktop Chrome'],
  viewport: { width: 1440, height: 900 },
  launchOptions: { executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS },
};

/**
 * The projects with specs of their own, in the order they run after the catch-all `chromium` project (which
 * takes every other spec: it ignores exactly what these match, so that no spec runs twice or not at all).
 */
const SPEC_PROJECTS: (Project & { testMatch: RegExp })[] = [
  // Quality analysis and the audit trail: a month of test records, the Quality tab, the audit screen.
  { name: 'insight', testMatch: /insight\.spec\.ts/, dependencies: ['setup'], use: chromium },
  {
    name: 'public-host',
    testMatch: /public-host\.spec\.ts/,
    dependencies: ['setup'],
    use: {
      ...chromium,
      baseURL: `http://report.test:${PORT}`,
      launchOptions: { executablePath: '/usr/bin/chromium', args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP report.test 127.0.0.1'] },
    },
  },
  { name: 'screens', testMatch: /screens\.spec\.ts/, dependencies: ['setup'], use: chromium },
  // Products and serial ranges: after the shell's tests, since they change the admin's language.
  { name: 'catalogue', testMatch: /catalogue.*\.spec\.ts/, dependencies: ['setup'], use: chromium },
  // Machine data: benches and keys, a posted batch, CSV, list filters, a record's chart, a unit's history.
  { name: 'machine-data', testMatch: /machine-data\.spec\.ts/, dependencies: ['setup'], use: chromium },
  // Searches: spends one public report request (10 per IP in 15 min, shared by every spec), so
  // it is listed before public-search, which spends most of the rest.
  { name: 'searches', testMatch: /searches\.spec\.ts/, dependencies: ['setup'], use: chromium },
  // The public Test Report Center and the Settings screen: lookup, request, preview, verification.
  { name: 'public-search', testMatch: /public-search\.spec\.ts/, dependencies: ['setup'], use: chromium },
  { name: 'settings', testMatch: /settings\.spec\.ts/, dependencies: ['setup'], use: chromium },
  // The staff dashboard: its figures against the API's, the requests chart, the alert inbox; en/zh at 1440 and 390 px.
  { name: 'dashboard', testMatch: /dashboard\.spec\.ts|alerts\.spec\.ts/, dependencies: ['setup'], use: chromium },
  // Standards and judgement: the product form's live requirement, a range's body material, the verdict
  // filter and a record's required vs measured, en/zh at 1440 and 390 px.
  { name: 'standards', testMatch: /standards\.spec\.ts/, dependencies: ['setup'], use: chromium },
  // Customers, purchase orders and deliveries: a customer with a contact, an order, a delivery filled by a
  // typed range, a refused serial; en/zh at 1440 and 390 px.
  { name: 'orders', testMatch: /orders\.spec\.ts/, dependencies: ['setup'], use: chromium },
  // The buyer's side of a released delivery: the link from the email, the delivery page, the ZIP, an ended
  // link, "I have a delivery"; en/zh at 1440 and 390 px.
  { name: 'delivery-link', testMatch: /delivery-link\.spec\.ts/, dependencies: ['setup'], use: chromium },
  // The visitor's first screen: prerendered /search and /login in the visitor's language, the language choice.
  { name: 'visitor-page', testMatch: /visitor-page\.spec\.ts/, use: chromium },
  // The user guide's screenshots (docs/user-guide): the demo server on its own data, from this run's snapshot.
  { name: 'user-guide', testMatch: /user-guide\.spec\.ts/, use: chromium },
];

export default defineConfig({
  testDir: 'e2e',
  // Per run: another run of this config at the same time must not clear this one's traces.
  outputDir: path.join('e2e', 'artifacts', 'test-results', `port-${PORT}`),
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000 * TIME_SCALE,
  expect: { timeout: 10_000 * TIME_SCALE },
  reporter: [['list']],
  // A trace is recorded for every test and kept for the failing ones; E2E_TRACE=off records none, where nobody
  // can open a trace (CI: .ci/run) and recording costs time on every action.
  use: { baseURL: BASE_URL, trace: process.env.E2E_TRACE === 'off' ? 'off' : 'retain-on-failure', screenshot: 'only-on-failure' },
  projects: [
    { name: 'setup', testMatch: /first-admin\.setup\.ts/, use: chromium },
    {
      name: 'chromium',
      testIgnore: SPEC_PROJECTS.map((p) => p.testMatch),
      dependencies: ['setup'],
      use: chromium,
    },
    ...SPEC_PROJECTS,
  ],
  // After the run: the server's log holds no password, bench key or cookie (e2e/log-secrets.teardown.ts).
  globalTeardown: './e2e/log-secrets.teardown.ts',
  webServer: {
    // A snapshot of the app built and served beside the run's database (see e2e/serve-snapshot.mjs).
    command: 'node e2e/serve-snapshot.mjs',
    url: `${BASE_URL}/healthz`,
    // The snapshot is built before the server starts; with both CI passes at once on two cores that takes minutes.
    timeout: 420_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR,
      PUBLIC_BASE_URL: BASE_URL,
      // info: every request is in DATA_DIR/server.log for the log-secrets teardown (stdout is ignored here).
      LOG_LEVEL: 'info',
    },
  },
});
