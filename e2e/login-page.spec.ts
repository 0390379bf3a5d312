/**
 * The sign-in page (docs/decisions/0027-login-hydrated.md, 0074-sign-in-page-of-its-own.md): /login arrives
 * drawn in the visitor's language, and its own small bundle hydrates that HTML instead of replacing it, so the
 * nodes on screen before the scripts ran are the nodes afterwards; its fields take typing from the start, and
 * what was typed signs in once the page runs. It loads no staff app: the sign-in ends in a page load of it.
 * No timing is asserted. Screenshots under e2e/artifacts/login-page, in each language and look, before the
 * scripts run and after.
 */
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { ADMIN, ADMIN_STATE, createStaff, signInByApi } from './helpers';
import { expectAxeClean, translator, type Language } from './screen-kit';
import { langWidthThemes } from './looks';
import { keepScreenshot } from './shots';

const OUT = path.join('e2e', 'artifacts', 'login-page');
const tr = translator(['pages', 'authScreens', 'auth', 'validation', 'errors', 'form']);
const LOCALE: Record<Language, string> = { en: 'en-US', zh: 'zh-TW' };

/** The page's script has taken it over (src/web/login-app/main-login.tsx). */
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
  // Modules of the staff app the page asks for (there should be none).
  const staffModules: string[] = [];
  page.on('request', (r) => {
    if (/\/assets\/(main-app|router|default-layout|i18n|theme)[-.]/.test(new URL(r.url()).pathname)) staffModules.push(r.url());
  });
  await page.goto('/login', { waitUntil: 'commit' });
  return { context, page, release, reactErrors, staffModules };
}

test('the served /login is hydrated, not replaced, and what was typed before the scripts ran signs in', async ({ browser }) => {
  const { context, page, release, reactErrors, staffModules } = await heldPage(browser, 'en', 390);
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
  // None of the staff app came with the page: no MUI styles, no staff app module.
  expect(await page.locator('style[data-emotion]').count()).toBe(0);
  expect(staffModules).toEqual([]);
  // The button waited for the page's script; the typing is what the form sends.
  await page.getByRole('button', { name: tr('en', 'authScreens.signIn') }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  // The staff app, started by the page load the sign-in ends in, says so.
  await expect(page.getByText(tr('en', 'auth.loginSuccess'))).toBeVisible();
  expect(reactErrors).toEqual([]);
  await context.close();
});

test('refusals show on the form in the page language, the address kept, and a later sign-in goes where `to` said', async ({ browser }) => {
  const context = await browser.newContext({ locale: LOCALE.zh, viewport: { width: 390, height: 900 } });
  const page = await context.newPage();
  await page.goto('/login?to=%2Fstaffs&tab=1');
  await started(page);
  const submit = page.getByRole('button', { name: tr('zh', 'authScreens.signIn') });
  // Nothing typed: each field says so, and nothing is sent.
  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/v1/auth/login')) sent.push(r.method());
  });
  await submit.click();
  await expect(page.getByText(tr('zh', 'validation.required'))).toHaveCount(2);
  await expect(page.locator('#field-email')).toBeFocused();
  await expect(page.locator('#field-email')).toHaveAttribute('aria-invalid', 'true');
  await page.locator('#field-email').fill('not an address');
  await page.locator('#field-password').fill('x');
  await submit.click();
  await expect(page.getByText(tr('zh', 'validation.email'))).toBeVisible();
  expect(sent).toEqual([]);
  // A wrong password: the server's refusal, in Chinese, in an alert; the address stays.
  await page.locator('#field-email').fill(ADMIN.email);
  await page.locator('#field-password').fill('not the password');
  await submit.click();
  await expect(page.getByRole('alert')).toHaveText(tr('zh', 'errors.emailOrPasswordWrong'));
  expect(sent).toEqual(['POST']);
  await expect(page.locator('#field-email')).toHaveValue(ADMIN.email);
  await expect(page.locator('#field-email')).toHaveAttribute('aria-invalid', 'false');
  await expectAxeClean(page, '/login zh refused');
  await keepScreenshot(page, { path: path.join(OUT, 'zh-390-light-refused.png') });
  // The password shown and hidden again by the field's button.
  const password = page.locator('#field-password');
  await page.getByRole('button', { name: tr('zh', 'form.showPassword') }).click();
  await expect(password).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: tr('zh', 'form.hidePassword') }).click();
  await expect(password).toHaveAttribute('type', 'password');
  await password.fill(ADMIN.password);
  await password.press('Enter');
  await expect(page).toHaveURL(/\/staffs\?tab=1$/);
  await context.close();
});

test("the first page after signing in is served in the account's language and look, not the browser's", async ({ browser, baseURL }) => {
  // An account in English with the dark theme kept on it, set up in a context of its own.
  const admin = await browser.newContext({ storageState: ADMIN_STATE });
  const member = await createStaff(admin.request, { role: 'staff' });
  await admin.close();
  const setup = await browser.newContext();
  await signInByApi(setup.request, member.email, member.password);
  expect((await setup.request.patch('/api/v1/auth/me', { data: { language: 'en', preferences: { theme: 'dark' } } })).ok()).toBe(true);
  await setup.close();

  // A browser that chose Chinese and the light theme on an earlier visit, and has never seen this account.
  const context = await browser.newContext({ locale: LOCALE.zh, viewport: { width: 390, height: 900 } });
  const host = new URL(baseURL!).hostname;
  await context.addCookies(
    ['language:zh', 'theme:light'].map((pair) => {
      const [name, value] = pair.split(':');
      return { name: `test-report-center-${name}`, value: value!, domain: host, path: '/' };
    }),
  );
  const page = await context.newPage();
  await page.goto('/login');
  await started(page);
  await page.locator('#field-email').fill(member.email);
  await page.locator('#field-password').fill(member.password);
  const served = page.waitForResponse((r) => new URL(r.url()).pathname === '/dashboard' && r.request().resourceType() === 'document');
  await page.getByRole('button', { name: tr('zh', 'authScreens.signIn') }).click();
  // The page the sign-in loads, as the server drew its frame: from the cookies the sign-in page wrote first.
  const html = await (await served).text();
  const frame = /<div id="trc-shell"[^>]*>/.exec(html)?.[0];
  expect(frame, 'the dashboard is served with its frame').toBeTruthy();
  expect(frame).toContain('data-theme="dark"');
  expect(/<h1 class="trc-shell-title">([^<]*)<\/h1>/.exec(html)?.[1]).toBe(tr('en', 'pages.dashboard'));
  // The app itself agrees.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(tr('en', 'pages.dashboard'));
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
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
    // The page's colour is the look's (public.css reads the look from <html data-theme>).
    const background = await page.evaluate(() => getComputedStyle(document.querySelector('.pp')!).backgroundColor);
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
