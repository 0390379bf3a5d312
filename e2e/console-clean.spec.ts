/**
 * The pages log nothing wrong: no console error and no Content-Security-Policy violation on the sign-in
 * page (a visitor's session check answers 200, not 401), the staff screens (zod runs without its `new
 * Function` probe, lib/zod-jitless.ts), the public page and the offline verifier. robots.txt is a robots
 * file, not the app's page.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { ADMIN_STATE } from './helpers';

/** Console errors and CSP violations of a page, from before its first script runs. */
async function watched(browser: Browser, storageState?: string): Promise<{ page: Page; problems: string[]; close: () => Promise<void> }> {
  const context = await browser.newContext(storageState ? { storageState } : {});
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

test('the sign-in, public and verifier pages log no error and no CSP violation', async ({ browser }) => {
  const { page, problems, close } = await watched(browser);
  for (const path of ['/login', '/search', '/verify']) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
  }
  expect(problems).toEqual([]);
  await close();
});

test('the staff screens log no error and no CSP violation', async ({ browser }) => {
  const { page, problems, close } = await watched(browser, ADMIN_STATE);
  for (const path of ['/dashboard', '/products', '/serial-numbers', '/machine-data', '/quality', '/settings']) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  }
  expect(problems).toEqual([]);
  await close();
});

test('robots.txt is a robots file that keeps the staff app out of search engines', async ({ request }) => {
  const res = await request.get('/robots.txt');
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toContain('text/plain');
  const text = await res.text();
  expect(text).toContain('User-agent: *');
  expect(text).toContain('Allow: /search');
  expect(text).toContain('Disallow: /');
  expect(text).not.toContain('<html');
});

test('the pages describe themselves to search engines', async ({ page }) => {
  for (const path of ['/search', '/login']) {
    await page.goto(path);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /\S{20,}|\S+ \S+ \S+/);
  }
});
