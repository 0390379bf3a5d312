/**
 * The staff app's first screen (docs/decisions/0027-login-hydrated.md): /login arrives drawn in the
 * visitor's language, and the app hydrates that HTML instead of replacing it, so the nodes on screen before
 * the scripts ran are the nodes afterwards; its fields take typing from the start, and what was typed
 * signs in once the app runs. No timing is asserted. Screenshots under e2e/artifacts/login-page, in each
 * language and look, before the scripts run and after.
 */
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { ADMIN, ADMIN_STATE } from './helpers';
import { expectAxeClean, translator, type Language } from './screen-kit';
import { langWidthThemes } from './looks';
import { keepScreenshot } from './shots';

const OUT = path.join('e2e', 'artifacts', 'login-page');
const tr = translator(['pages', 'authScreens']);
const LOCALE: Record<Language, string> = { en: 'en-US', zh: 'zh-TW' };

/** The app has taken the page over (src/web/app/root-shell.tsx). */
async function started(page: Page) {
  await expect(page.locator('html')).toHaveAttribute('data-ready', 'true');
}

/** A page whose scripts are held back until `release()`: meanwhile it is only the served HTML. */
async function heldPage(browser: Browser, lang: Language, width: number, look: 'light' | 'dark' = 'light') {
  const context = await browser.newContext({ locale: LOCALE[lang], viewport: { width, height: 900 }, colorScheme: look });
  // The look chosen on an earlier visit (src/web/lib/storage.ts); the HTML is drawn in the light one.
  if (look === 'dark')
    await context.addCookies([{ name: 'test-report-center-theme', value: 'dark', url: test.info().project.use.baseURL! }]);
  const page = await context.newPage();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/*.js', async (route) => {
    await held;
    await route.continue();
  });
  const reactErrors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /react|hydrat/i.test(m.text())) reactErrors.push(m.text());
  });
  page.on('pageerror', (e) => reactErrors.push(e.message));
  // Not 'domcontentloaded': that waits for the module scripts, which are held back.
  await page.goto('/login', { waitUntil: 'commit' });
  return { context, page, release, reactErrors };
}

test('the served /login is hydrated, not replaced, and what was typed before the scripts ran signs in', async ({ browser }) => {
  const { context, page, release, reactErrors } = await heldPage(browser, 'en', 390);
  const email = page.locator('#field-email');
  const password = page.locator('#field-password');
  await expect(email).toBeVisible();
  await expect(page.getByRole('button', { name: tr('en', 'authScreens.signIn') })).toBeDisabled();
  // Nodes of the served HTML, remembered and marked before any script of the app has run.
  await page.evaluate(() => {
    const w = window as unknown as { served: Element[] };
    w.served = ['main', 'h1', '#field-email', '#field-password', 'form button[type=submit]'].map((s) => document.querySelector(s)!);
    for (const node of w.served) node.setAttribute('data-served', 'yes');
  });
  await email.click();
  await email.pressSequentially(ADMIN.email);
  await password.click();
  await password.pressSequentially(ADMIN.password);
  await expect(page.locator('html')).not.toHaveAttribute('data-ready', 'true');

  release();
  await started(page);
  const same = await page.evaluate(() => {
    const w = window as unknown as { served: Element[] };
    return w.served.map((node) => node.isConnected && node.getAttribute('data-served') === 'yes');
  });
  expect(same).toEqual([true, true, true, true, true]);
  await expect(page.locator('[data-served]')).toHaveCount(5);
  await expect(email).toHaveValue(ADMIN.email);
  await expect(password).toHaveValue(ADMIN.password);
  // The button waited for the app; the typing reached the form's state.
  await page.getByRole('button', { name: tr('en', 'authScreens.signIn') }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  expect(reactErrors).toEqual([]);
  await context.close();
});

test('a signed-in user on the hydrated /login still goes on to the dashboard', async ({ browser }) => {
  const context = await browser.newContext({ storageState: ADMIN_STATE });
  const page = await context.newPage();
  await page.goto('/login');
  await expect(page).toHaveURL(/\/dashboard$/);
  await context.close();
});

for (const [lang, width, look] of langWidthThemes()) {
  test(`/login ${lang} ${width} px ${look}: before the scripts and after`, async ({ browser }) => {
    const { context, page, release, reactErrors } = await heldPage(browser, lang, width, look);
    await expect(page.locator('html')).toHaveAttribute('lang', lang === 'zh' ? 'zh-Hant' : 'en');
    await expect(page.getByRole('heading', { level: 1, name: tr(lang, 'pages.login') })).toBeVisible();
    await keepScreenshot(page, { path: path.join(OUT, `${lang}-${width}-${look}-before.png`) });
    release();
    await started(page);
    const heading = page.getByRole('heading', { level: 1, name: tr(lang, 'pages.login') });
    await expect(heading).toBeVisible();
    await expect(page.getByRole('button', { name: tr(lang, 'authScreens.signIn') })).toBeEnabled();
    // The body's colour is the look's (the prerendered light styles were dropped in the dark look).
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r = 0] = background.match(/\d+/g)!.map(Number);
    if (look === 'dark') expect(r).toBeLessThan(80);
    else expect(r).toBeGreaterThan(200);
    await page.evaluate(() => document.fonts.ready);
    await keepScreenshot(page, { path: path.join(OUT, `${lang}-${width}-${look}-after.png`) });
    await expectAxeClean(page, `/login ${lang} ${width} ${look}`);
    expect(reactErrors).toEqual([]);
    await context.close();
  });
}
