/**
 * The user guide's screenshots (docs/user-guide.md, docs/user-guide.zh.md), made from the demo data so they
 * follow the app: `npm run demo`'s server (the server build, dist/server/main.js --demo, DEMO_SIZE=small, with
 * `npm start`'s node flags) on its own temporary DATA_DIR and port, run from the snapshot e2e/serve-snapshot.mjs
 * already built for this run (no second build), signed in with the administrator it prints. Every screen at 1440×900 in English
 * (docs/user-guide/<screen>.png) and Traditional Chinese (docs/user-guide/zh/<screen>.png).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { dataDir } from './helpers';
import { freePort } from '../test/helpers/free-port';
import { colon } from '../src/shared/i18n/punctuation';
import { translator } from './screen-kit';
import { TIME_SCALE } from './time-scale';
import { LEAN_MALLOC, LEAN_NODE_FLAGS } from '../scripts/server-process.mjs';

const tr = translator(['labels']);

type Language = 'en' | 'zh';
const DOCS = path.resolve('docs', 'user-guide');
const VIEWPORT = { width: 1440, height: 900 };

test.describe.configure({ mode: 'serial' });
test.setTimeout(180_000 * TIME_SCALE);

let server: ChildProcess | undefined;
let demoDir = '';
let base = '';
let admin = { email: '', password: '' };
let serial = '';
let reportId = '';

test.beforeAll(async () => {
  test.setTimeout(240_000 * TIME_SCALE);
  // The snapshot the run's web server was built from (its own, or one shared by runs): its dist/web and
  // dist/server are beside its sources.
  const snap = process.env.E2E_SNAPSHOT ? path.resolve(process.env.E2E_SNAPSHOT) : path.join(dataDir(), 'app');
  for (const built of ['dist/web/index.html', 'dist/server/main.js']) {
    expect(fs.existsSync(path.join(snap, built)), `the e2e snapshot holds ${built}`).toBe(true);
  }
  demoDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-guide-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...LEAN_MALLOC,
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: demoDir,
    DEMO_SIZE: 'small',
    LOG_LEVEL: 'warn',
  };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'SMTP_URL', 'PUBLIC_BASE_URL', 'TEST_DATABASE_URL']) delete env[name];
  server = spawn(process.execPath, [...LEAN_NODE_FLAGS, path.join(snap, 'dist/server/main.js'), '--demo'], {
    cwd: snap,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  server.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  server.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const deadline = Date.now() + 200_000;
  while (!/reset-password --email \S+\n/.test(out)) {
    if (server.exitCode !== null) throw new Error(`demo server exited: ${err}`);
    if (Date.now() > deadline) throw new Error(`demo server did not print its accounts: ${out}\n${err}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const m = /^\s+admin\s+(\S+)\s+password: (\S+)$/m.exec(out);
  expect(m, out).not.toBeNull();
  admin = { email: m![1]!, password: m![2]! };
  serial = /Try serial (\S+) on \/search/.exec(out)?.[1] ?? '';
  expect(serial, out).not.toBe('');
  fs.mkdirSync(path.join(DOCS, 'zh'), { recursive: true });
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise<void>((resolve) => server!.once('exit', () => resolve()));
    server.kill('SIGTERM');
    await exited;
  }
  if (demoDir) fs.rmSync(demoDir, { recursive: true, force: true });
});

/** Waits until the page shows content: no request in flight, no visible progress bar or skeleton. */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await page
    .waitForFunction(
      () =>
        ![...document.querySelectorAll('[role="progressbar"], .MuiSkeleton-root')].some((el) => {
          const r = (el as HTMLElement).getBoundingClientRect();
          return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
        }),
      undefined,
      { timeout: 10_000 * TIME_SCALE },
    )
    .catch(() => undefined);
  // Charts and transitions finish drawing.
  await page.waitForTimeout(600);
}

async function shoot(page: Page, lang: Language, name: string) {
  await settle(page);
  await page.screenshot({ path: path.join(DOCS, ...(lang === 'zh' ? ['zh'] : []), `${name}.png`) });
}

async function open(page: Page, lang: Language, url: string, name: string) {
  await page.goto(`${base}${url}`);
  await shoot(page, lang, name);
}

async function visitor(context: BrowserContext, lang: Language) {
  await context.addCookies([{ name: 'test-report-center-language', value: lang, domain: '127.0.0.1', path: '/' }]);
}

for (const lang of ['en', 'zh'] as const) {
  test(`user guide screenshots: ${lang}`, async ({ browser }) => {
    // The public side first, as a visitor: the sign-in page, the Test Report Center and verification.
    const guest = await browser.newContext({ viewport: VIEWPORT });
    await visitor(guest, lang);
    const pub = await guest.newPage();
    await open(pub, lang, '/login', 'sign-in');
    await expect(pub.locator('html')).toHaveAttribute('lang', lang === 'zh' ? 'zh-Hant' : 'en');

    await open(pub, lang, '/search', 'search');
    await pub.locator('#serial-input').fill(serial);
    await pub.locator('#serial-input').press('Enter');
    await expect(pub.getByTestId('lookup-results')).toContainText(serial);
    await shoot(pub, lang, 'search-found');
    {
      // A report request in each language (the demo server's own request limits leave room for two).
      await pub.locator('input[type="checkbox"]').first().check();
      await pub.locator('input[type="email"], input[name="email"]').first().fill(`visitor.${lang}@example.com`);
      await pub.getByTestId('step-request').locator('button[type="submit"]').click();
      await expect(pub.getByTestId('pdf-preview').locator('canvas')).toBeVisible({ timeout: 60_000 * TIME_SCALE });
      await pub.getByTestId('step-request').scrollIntoViewIfNeeded();
      await shoot(pub, lang, 'search-report');
      const href = await pub.getByTestId('step-request').locator('a[href*="/api/v1/public/reports/"]').first().getAttribute('href');
      reportId ||= /reports\/([^/.]+)\.pdf$/.exec(href ?? '')?.[1] ?? '';
      expect(href ?? '').toMatch(/reports\/[^/.]+\.pdf$/);
    }
    await pub.goto(`${base}/search?report=${reportId}`);
    await expect(pub.getByTestId('linked-verification').getByTestId('verification-genuine')).toBeVisible();
    await shoot(pub, lang, 'verify');
    await guest.close();

    // The staff screens, as the demo's administrator with the language as their preference.
    const context = await browser.newContext({ viewport: VIEWPORT });
    const login = await context.request.post(`${base}/api/v1/auth/login`, { data: admin });
    expect(login.status(), await login.text()).toBe(200);
    const me = await context.request.patch(`${base}/api/v1/auth/me`, { data: { language: lang } });
    expect(me.status(), await me.text()).toBe(200);
    const page = await context.newPage();
    await open(page, lang, '/dashboard', 'dashboard');
    await expect(page.locator('html')).toHaveAttribute('lang', lang === 'zh' ? 'zh-Hant' : 'en');
    await open(page, lang, '/products', 'products');
    await open(page, lang, '/add-product', 'product-form');
    await open(page, lang, '/serial-numbers', 'serial-numbers');
    // The first range's Print labels dialog.
    await page
      .getByRole('button', { name: new RegExp(`^${tr(lang, 'labels.print')}${colon(lang)}`) })
      .first()
      .click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await shoot(page, lang, 'labels-dialog');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();
    await open(page, lang, '/add-serial-number', 'serial-number-form');
    await open(page, lang, '/machine-data', 'machine-data');
    await page.getByTestId('csv-import').click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await shoot(page, lang, 'machine-data-csv-import');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();
    // A record with pressure samples (a share of the demo's records), so that its chart shows a curve.
    const list = await context.request.get(`${base}/api/v1/machine-data?pageSize=100&sort=testedAt&order=desc`);
    expect(list.status(), await list.text()).toBe(200);
    const items = ((await list.json()) as { data: { items: Array<{ id: string; sampleCount: number }> } }).data.items;
    const sampled = items.find((i) => i.sampleCount > 0) ?? items[0];
    expect(sampled, 'the demo has test records').toBeDefined();
    await open(page, lang, `/machine-data/${encodeURIComponent(sampled!.id)}`, 'machine-record');
    await open(page, lang, `/units/${encodeURIComponent(serial)}`, 'unit-history');
    await open(page, lang, '/machines', 'benches');
    // The last year by week: the demo's tests end some weeks before today.
    const day = (offset: number) => new Date(Date.now() - offset * 86_400_000).toISOString().slice(0, 10);
    await open(page, lang, `/machine-data/quality?from=${day(364)}&to=${day(0)}&interval=week`, 'quality');
    await open(page, lang, '/searches', 'searches');
    await open(page, lang, '/staffs', 'staffs');
    await open(page, lang, '/settings', 'settings');
    await open(page, lang, '/audit-log', 'audit-trail');
    await open(page, lang, '/account-settings/profile', 'account-profile');
    await open(page, lang, '/account-settings/account', 'account-security');
    await page.goto(`${base}/dashboard`);
    await settle(page);
    await page.getByTestId('open-customizer').first().click();
    await shoot(page, lang, 'preferences');
    await context.close();
  });
}
