/**
 * The visitor's first screen (docs/decisions/0022-prerendered-first-screens.md): /search arrives as HTML
 * that already shows the serial field in the visitor's language; the browser's language decides until a
 * choice is made on the page, which is remembered and wins; typing before the page's JavaScript has
 * arrived is kept; a `?serial=` link is looked up at once. No timing is asserted. Screenshots under
 * e2e/artifacts/visitor-page.
 */
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { translator } from './screen-kit';
import { keepScreenshot } from './shots';

const OUT = path.join('e2e', 'artifacts', 'visitor-page');
const tr = translator(['search', 'pages']);
const COOKIE = 'test-report-center-language';

/** React has taken over the prerendered page (src/web/public-app/main-public.tsx). */
async function started(page: Page) {
  await expect(page.locator('html')).toHaveAttribute('data-ready', 'true');
}

/**
 * Holds back the page's own module (React and the page) while the entry, which asks for it, runs: the page is
 * the prerendered HTML with the entry's early handlers until `release`. `entryRan` resolves once it asked.
 */
async function holdPageModule(page: Page): Promise<{ entryRan: Promise<void>; release: () => void }> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let asked!: () => void;
  const entryRan = new Promise<void>((resolve) => (asked = resolve));
  await page.route('**/assets/main-public-*.js', async (route) => {
    asked();
    await held;
    // The first page's request may be gone with a page a native submit left.
    await route.continue().catch(() => undefined);
  });
  return { entryRan, release };
}

test('the served HTML of /search already holds the serial field in the language of Accept-Language', async ({ request }) => {
  const zh = await request.get('/search', { headers: { 'accept-language': 'zh-TW,zh;q=0.9,en;q=0.8' } });
  expect(zh.status()).toBe(200);
  const html = await zh.text();
  expect(html).toMatch(/<html lang="zh-Hant"/);
  expect(html).toMatch(/<textarea[^>]*id="serial-input"/);
  expect(html).toContain(tr('zh', 'search.lookup.title'));
  expect(html).toContain(`<title>${tr('zh', 'pages.search')}</title>`);
  expect(zh.headers()['vary']).toMatch(/Accept-Language/i);

  const en = await request.get('/search', { headers: { 'accept-language': 'de-DE,de;q=0.9' } });
  const enHtml = await en.text();
  expect(enHtml).toMatch(/<html lang="en"/);
  expect(enHtml).toMatch(/<textarea[^>]*id="serial-input"/);
  expect(enHtml).toContain(tr('en', 'search.lookup.title'));

  // The sign-in screen arrives drawn too, in the container its own script hydrates (e2e/login-page.spec.ts).
  const login = await (await request.get('/login', { headers: { 'accept-language': 'zh-HK' } })).text();
  expect(login).toMatch(/<html lang="zh-Hant"/);
  expect(login).toMatch(/<div id="app"><.*id="field-email"/s);
  expect(login).not.toContain('app-shell');
});

test('the browser language decides until a choice is made on the page; the choice is remembered and wins', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'zh-TW', viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto('/search');
  await started(page);
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hant');
  await expect(page.getByRole('heading', { level: 1, name: tr('zh', 'pages.search') })).toBeVisible();
  await keepScreenshot(page, { path: path.join(OUT, 'browser-zh-390.png'), fullPage: true });

  // Chosen on the page: English, though the browser asks for Chinese.
  await page.getByTestId('language-switch').click();
  await expect(page.getByRole('heading', { level: 1, name: tr('en', 'pages.search') })).toBeVisible();
  expect((await context.cookies()).find((c) => c.name === COOKIE)?.value).toBe('en');
  const reloaded = await page.reload();
  expect(await reloaded!.text()).toMatch(/<html lang="en"/);
  await started(page);
  await expect(page.getByRole('heading', { level: 1, name: tr('en', 'pages.search') })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await context.close();
});

test('navigator.languages decides when the HTML came in another language, without remembering it', async ({ browser }) => {
  // A proxy or an old header asked for English; the browser itself is set to Traditional Chinese.
  const context = await browser.newContext({ locale: 'zh-TW' });
  const page = await context.newPage();
  await page.route('**/search', (route) => route.continue({ headers: { ...route.request().headers(), 'accept-language': 'en' } }));
  const res = await page.goto('/search');
  expect(await res!.text()).toMatch(/<html lang="en"/);
  await started(page);
  await expect(page.getByRole('heading', { level: 1, name: tr('zh', 'pages.search') })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hant');
  expect((await context.cookies()).find((c) => c.name === COOKIE)).toBeUndefined();
  await context.close();
});

test('a choice kept only in localStorage is copied into the cookie, so the next page is served in it', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  await page.goto('/search');
  await started(page);
  await page.evaluate((key) => localStorage.setItem(key, 'zh'), COOKIE);
  await context.clearCookies();
  await page.reload();
  await started(page);
  await expect(page.getByRole('heading', { level: 1, name: tr('zh', 'pages.search') })).toBeVisible();
  expect((await context.cookies()).find((c) => c.name === COOKIE)?.value).toBe('zh');
  const next = await page.reload();
  expect(await next!.text()).toMatch(/<html lang="zh-Hant"/);
  await context.close();
});

test('typing before the JavaScript has arrived is kept, and the lookup then works', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  // Hold back every script until the visitor has typed: the page is only the prerendered HTML meanwhile.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/*.js', async (route) => {
    await held;
    await route.continue();
  });
  // Not 'domcontentloaded': that waits for the module scripts, which are held back.
  await page.goto('/search', { waitUntil: 'commit' });
  const field = page.locator('#serial-input');
  await expect(field).toBeVisible();
  await field.click();
  await field.pressSequentially('zz-not-a-unit-1');
  await expect(page.locator('html')).not.toHaveAttribute('data-ready', 'true');
  await keepScreenshot(page, { path: path.join(OUT, 'before-scripts-en-390.png') });
  release();
  await started(page);
  await expect(field).toHaveValue('zz-not-a-unit-1');
  await field.press('Enter');
  await expect(page.getByTestId('not-found')).toContainText('ZZ-NOT-A-UNIT-1');
  await context.close();
});

test('Enter in the serial field before React has taken the page over submits the form natively: nothing typed is lost', async ({
  browser,
}) => {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  // The entry runs (it asks for the page's module); the page's module is held back, so React never starts.
  const { entryRan, release } = await holdPageModule(page);
  await page.goto('/search', { waitUntil: 'commit' });
  const field = page.locator('#serial-input');
  await field.click();
  await field.pressSequentially('zz-enter-early-1');
  await entryRan;
  await expect(page.locator('html')).not.toHaveAttribute('data-ready', 'true');
  await field.press('Enter');
  // A GET /search?serial=…, which the page looks up as soon as it starts.
  await expect(page).toHaveURL(/\/search\?serial=zz-enter-early-1$/);
  release();
  await started(page);
  await expect(page.locator('#serial-input')).toHaveValue('zz-enter-early-1');
  await expect(page.getByTestId('not-found')).toContainText('ZZ-ENTER-EARLY-1');
  await context.close();
});

test('"I have a delivery" tapped before React has taken the page over opens its form once the page starts', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'zh-TW', viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  // The entry runs (it asks for the page's module); the page's module is held back until the tap is made.
  const { entryRan, release } = await holdPageModule(page);
  await page.goto('/search', { waitUntil: 'commit' });
  await entryRan;
  const opener = page.getByRole('button', { name: tr('zh', 'search.delivery.request.open') });
  await opener.click();
  await expect(page.locator('html')).not.toHaveAttribute('data-ready', 'true');
  release();
  await started(page);
  await expect(page.getByRole('textbox', { name: tr('zh', 'search.delivery.request.number') })).toBeVisible();
  await expect(opener).toHaveCount(0);
  // Opened once: back to the page and started again, the button is there to tap.
  await page.goto('/search');
  await started(page);
  await expect(page.getByRole('button', { name: tr('zh', 'search.delivery.request.open') })).toBeVisible();
  await context.close();
});

test('the language switch tapped before React has taken the page over switches once the page starts', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const { entryRan, release } = await holdPageModule(page);
  await page.goto('/search', { waitUntil: 'commit' });
  await entryRan;
  await expect(page.getByRole('heading', { level: 1, name: tr('en', 'pages.search') })).toBeVisible();
  await page.getByTestId('language-switch').click();
  await expect(page.locator('html')).not.toHaveAttribute('data-ready', 'true');
  release();
  await started(page);
  await expect(page.getByRole('heading', { level: 1, name: tr('zh', 'pages.search') })).toBeVisible();
  // Remembered as a choice: the next page is served in it.
  await page.goto('/search');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hant');
  await context.close();
});

test('a link with ?serial= fills the field and looks the serial up at once', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'zh-TW', viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto('/search?serial=ZZ-LINKED-000001');
  await expect(page.locator('#serial-input')).toHaveValue('ZZ-LINKED-000001');
  await expect(page.getByTestId('not-found')).toContainText('ZZ-LINKED-000001');
  await expect(page.getByRole('heading', { level: 3, name: tr('zh', 'search.lookup.notFound') })).toBeVisible();
  await keepScreenshot(page, { path: path.join(OUT, 'linked-serial-zh-390.png'), fullPage: true });
  await context.close();
});

test("a nameplate's identification link /id/<serial> opens the public page with the lookup done", async ({ browser }) => {
  const context = await browser.newContext({ locale: 'en-GB', viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto('/id/zz-linked-000002');
  await expect(page).toHaveURL(/\/search\?serial=ZZ-LINKED-000002$/);
  await expect(page.locator('#serial-input')).toHaveValue('ZZ-LINKED-000002');
  await expect(page.getByRole('heading', { level: 3, name: tr('en', 'search.lookup.notFound') })).toBeVisible();
  await keepScreenshot(page, { path: path.join(OUT, 'identification-link-en-1440.png'), fullPage: true });
  await context.close();
});
