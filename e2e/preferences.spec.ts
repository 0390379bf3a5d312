/** The language and every interface preference survive reload; the language and preferences also follow the account to a new sign-in. */
import { expect, test, type Page } from '@playwright/test';
import { ADMIN_STATE, createStaff, signInThroughUi } from './helpers';

async function openCustomizer(page: Page) {
  await page.getByTestId('open-customizer').click();
  await expect(page.getByRole('heading', { name: /Theme Customizer|主題自訂/ })).toBeVisible();
}

test('the language survives reload and a new sign-in', async ({ browser }) => {
  const admin = await browser.newContext({ storageState: ADMIN_STATE });
  const member = await createStaff(admin.request);
  await admin.close();

  const first = await browser.newContext();
  const page = await first.newPage();
  await page.goto('/login');
  await signInThroughUi(page, member.email, member.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: '繁體中文' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hant');
  await expect(page).toHaveTitle('儀表板');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hant');
  await expect(page.getByRole('heading', { name: '儀表板' })).toBeVisible();
  await first.close();

  // Another browser: nothing stored locally, the account brings the language.
  const second = await browser.newContext();
  const again = await second.newPage();
  await again.goto('/login');
  await expect(again.locator('html')).toHaveAttribute('lang', 'en');
  await signInThroughUi(again, member.email, member.password);
  await expect(again).toHaveURL(/\/dashboard$/);
  await expect(again.locator('html')).toHaveAttribute('lang', 'zh-Hant');
  await expect(again.getByRole('heading', { name: '儀表板' })).toBeVisible();
  await second.close();
});

test("a visitor's language is kept in the browser", async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: '繁體中文' }).click();
  await expect(page.getByRole('heading', { name: '登入' })).toBeVisible();
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hant');
  await expect(page).toHaveTitle('登入');
  const cookies = await page.context().cookies();
  expect(cookies.find((c) => c.name === 'test-report-center-language')?.value).toBe('zh');
});

test('every preference survives reload and follows the account', async ({ browser }) => {
  const admin = await browser.newContext({ storageState: ADMIN_STATE });
  const member = await createStaff(admin.request);
  await admin.close();

  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto('/login');
  await signInThroughUi(page, member.email, member.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  // The sign-in's notice opens below the bar, never over the customizer's button or the account menu.
  const notice = page.getByText('Login Successfully');
  await expect(notice).toBeVisible();
  const bar = (await page.getByTestId('navbar').boundingBox())!;
  const toast = (await page.locator('.Toastify__toast').first().boundingBox())!;
  expect(toast.y).toBeGreaterThanOrEqual(bar.y + bar.height);
  // It may still cover the top of the customizer's panel: wait until it has gone.
  await expect(notice).toBeHidden();
  await openCustomizer(page);
  await page.getByTestId('pref-theme-dark').click();
  await page.getByTestId('pref-skin-bordered').click();
  await page.getByTestId('pref-navbarType-static').click();
  await page.getByTestId('pref-navbarBlur').uncheck();
  await page.getByTestId('pref-footerType-sticky').click();
  await page.getByTestId('pref-contentWidth-wide').click();
  await page.getByTestId('pref-semiDark').uncheck();
  await page.getByTestId('pref-verticalNavCollapsed').check();
  await page.getByTestId('pref-layout-horizontal').click();
  // Switching to horizontal un-collapses the vertical nav.
  await expect(page.getByTestId('pref-verticalNavCollapsed')).not.toBeChecked();
  await page.keyboard.press('Escape');

  const check = async (p: Page) => {
    const layout = p.getByTestId('default-layout');
    await expect(layout).toHaveAttribute('data-layout', 'horizontal');
    await expect(layout).toHaveAttribute('data-skin', 'bordered');
    await expect(layout).toHaveAttribute('data-content-width', 'wide');
    await expect(p.getByTestId('navbar')).toHaveAttribute('data-navbar-type', 'static');
    await expect(p.getByTestId('navbar')).toHaveAttribute('data-blur', 'false');
    await expect(p.getByTestId('footer')).toHaveAttribute('data-footer-type', 'sticky');
    await expect(p.locator('html')).toHaveCSS('color-scheme', 'dark');
    await expect(p.getByTestId('horizontal-nav')).toBeVisible();
  };
  await check(page);
  await page.reload();
  await check(page);
  const cookies = await context.cookies();
  const cookie = (n: string) => cookies.find((c) => c.name === `test-report-center-${n}`);
  expect(cookie('theme')?.value).toBe('dark');
  expect(cookie('layout')?.value).toBe('horizontal');
  const maxAge = (cookie('theme')?.expires ?? 0) - Date.now() / 1000;
  expect(maxAge).toBeGreaterThan(29 * 24 * 3600);
  expect(maxAge).toBeLessThanOrEqual(30 * 24 * 3600 + 5);
  expect(cookie('theme')?.path).toBe('/');
  expect(await page.evaluate(() => localStorage.getItem('test-report-center-skin'))).toBe('bordered');

  // Below 1280 px the navigation becomes vertical; above it the choice comes back.
  await page.setViewportSize({ width: 1000, height: 800 });
  await expect(page.getByTestId('default-layout')).toHaveAttribute('data-layout', 'vertical');
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(page.getByTestId('default-layout')).toHaveAttribute('data-layout', 'horizontal');

  // Collapsed vertical nav and the hidden navbar, with the rule that horizontal makes a hidden navbar sticky.
  await openCustomizer(page);
  await page.getByTestId('pref-layout-vertical').click();
  await page.getByTestId('pref-verticalNavCollapsed').check();
  await page.getByTestId('pref-navbarType-hidden').click();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('navbar')).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('navbar')).toHaveCount(0);
  await expect(page.getByTestId('vertical-nav').locator('.MuiDrawer-paper')).toHaveCSS('width', '72px');
  await openCustomizer(page);
  await page.getByTestId('pref-layout-horizontal').click();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('navbar')).toHaveAttribute('data-navbar-type', 'sticky');
  await page.waitForTimeout(800); // the account is saved after a short pause
  await context.close();

  // A new browser: the account brings the preferences.
  const other = await browser.newContext();
  const page2 = await other.newPage();
  await page2.goto('/login');
  await signInThroughUi(page2, member.email, member.password);
  await expect(page2).toHaveURL(/\/dashboard$/);
  await expect(page2.getByTestId('default-layout')).toHaveAttribute('data-layout', 'horizontal');
  await expect(page2.getByTestId('default-layout')).toHaveAttribute('data-skin', 'bordered');
  await expect(page2.locator('html')).toHaveCSS('color-scheme', 'dark');
  await other.close();
});

test('theme "system" follows the operating system live', async ({ browser }) => {
  const context = await browser.newContext({ storageState: ADMIN_STATE, colorScheme: 'light' });
  const page = await context.newPage();
  await page.goto('/dashboard');
  await openCustomizer(page);
  await page.getByTestId('pref-theme-system').click();
  await page.keyboard.press('Escape');
  await expect(page.locator('html')).toHaveCSS('color-scheme', 'light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveCSS('color-scheme', 'dark');
  await openCustomizer(page);
  await page.getByTestId('pref-theme-light').click();
  await context.close();
});
