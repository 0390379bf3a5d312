/**
 * The pages log nothing wrong: no console error and no Content-Security-Policy violation on the sign-in
 * page (a visitor's session check answers 200, not 401), the public page up to its step 2 (the request form,
 * which builds the contract's zod schemas), the offline verifier, and the staff screens signed in (zod runs
 * without its `new Function` probe, lib/zod-jitless.ts). robots.txt is a robots file, not the app's page, and
 * every page has a meta description in its language (docs/decisions/0068-staff-pages-on-a-phone.md).
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { createProduct, createRange, stamp } from './catalogue-helpers';
import { ADMIN_STATE, staffPage } from './helpers';
import { translator, type Language } from './screen-kit';
import { escapeHtml } from '../src/shared/html-escape';

const tr = translator(['app', 'verifier']);
const LANGUAGE_COOKIE = 'test-report-center-language';

/** Console errors and CSP violations of a page, from before its first script runs. */
async function watched(
  browser: Browser,
  opts: { storageState?: string; language?: Language; baseURL?: string } = {},
): Promise<{ page: Page; problems: string[]; close: () => Promise<void> }> {
  const context = await browser.newContext(opts.storageState ? { storageState: opts.storageState } : {});
  if (opts.language && opts.baseURL) {
    await context.addCookies([{ name: LANGUAGE_COOKIE, value: opts.language, domain: new URL(opts.baseURL).hostname, path: '/' }]);
  }
  const page = await context.newPage();
  const problems: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
  });
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`${page.url()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`${page.url()}: ${e.message}`));
  return { page, problems, close: () => context.close() };
}

const description = (page: Page) => page.locator('meta[name="description"]');

test('the sign-in, public and verifier pages log no error and no CSP violation', async ({ browser }) => {
  const { page, problems, close } = await watched(browser);
  for (const path of ['/login', '/search', '/verify']) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
  }
  expect(problems).toEqual([]);
  await close();
});

test("the public page's step 2 (its form checked by the contract's schema) logs no error and no CSP violation", async ({
  browser,
  baseURL,
}) => {
  const admin = await browser.newContext({ storageState: ADMIN_STATE });
  const s = stamp().toUpperCase();
  const product = await createProduct(admin.request, { name: `Console Clean Valve ${s}` });
  await createRange(admin.request, { productId: product.id, startSerial: `CC${s}-000001`, endSerial: `CC${s}-000010`, totalUnits: 10 });
  await admin.close();

  const { page, problems, close } = await watched(browser, { language: 'en', baseURL });
  await page.goto('/search');
  await page.locator('#serial-input').fill(`CC${s}-000001`);
  await page.locator('#serial-input').press('Enter');
  const step = page.getByTestId('step-request');
  await expect(step.locator('input[type="email"]')).toBeVisible();
  // Sent empty: the form's schema refuses it in the browser, and nothing is requested.
  await step.getByRole('button', { name: 'Send me the report' }).click();
  await expect(step.locator('input[type="email"]')).toHaveAttribute('aria-invalid', 'true');
  await page.waitForLoadState('networkidle');
  expect(problems).toEqual([]);
  await close();
});

test('the staff screens log no error and no CSP violation', async ({ browser }) => {
  const { page, problems, close } = await watched(browser, { storageState: ADMIN_STATE });
  for (const path of ['/dashboard', '/products', '/serial-numbers', '/machine-data', '/machine-data/quality', '/settings']) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  }
  expect(problems).toEqual([]);
  await close();
});

test('robots.txt is a robots file that keeps the API and every link naming a unit out of search engines', async ({ request }) => {
  const res = await request.get('/robots.txt');
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toContain('text/plain');
  const text = await res.text();
  expect(text).toContain('User-agent: *');
  for (const path of ['/api/', '/id/', '/01/', '/search?', '/verify?']) expect(text).toContain(`Disallow: ${path}`);
  // The pages themselves may be read: the staff screens show a visitor nothing but the sign-in.
  expect(text).not.toMatch(/^Disallow: \/$/m);
  expect(text).not.toContain('<html');
});

for (const language of ['en', 'zh'] as const) {
  test(`every page describes itself in its language: ${language}`, async ({ browser, baseURL }) => {
    // As served, before any script: the prerendered pages carry their language's description.
    const visitor = await watched(browser, { language, baseURL });
    for (const [path, key] of [
      ['/search', 'app.meta.search'],
      ['/login', 'app.meta.staff'],
    ] as const) {
      const html = await (await visitor.page.request.get(path)).text();
      expect(html, path).toContain(`<meta name="description" content="${escapeHtml(tr(language, key))}" />`);
      await visitor.page.goto(path);
      await expect(visitor.page.locator('html')).toHaveAttribute('data-ready', 'true');
      await expect(description(visitor.page), path).toHaveAttribute('content', tr(language, key));
    }
    await visitor.page.goto('/verify');
    await expect(description(visitor.page)).toHaveAttribute('content', tr(language, 'verifier.description'));
    expect(visitor.problems).toEqual([]);
    await visitor.close();

    // A staff screen drawn in the browser, in the account's language.
    const staff = await staffPage(browser, baseURL!, language, 1440);
    await staff.page.goto('/products');
    await expect(staff.page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(description(staff.page)).toHaveAttribute('content', tr(language, 'app.meta.staff'));
    await expect(description(staff.page)).toHaveCount(1);
    await staff.context.close();
  });
}
