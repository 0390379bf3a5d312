/** The navigation guard's rules 2 to 6 (rule 1, the public host name, is in public-host.spec.ts). */
import { expect, test } from '@playwright/test';
import { ADMIN, ADMIN_STATE, createStaff, signInByApi, signInThroughUi } from './helpers';
import { translator } from './screen-kit';

const translate = translator(['misc']);

test.describe('a visitor', () => {
  test('rule 2: public routes are open to everyone', async ({ page }) => {
    await page.goto('/search');
    await expect(page).toHaveURL(/\/search$/);
    await expect(page).toHaveTitle('Test Report Center');
    await page.goto('/not-authorized');
    await expect(page).toHaveTitle('Not Authorized');
    await page.goto('/pages/misc/not-authorized');
    await expect(page).toHaveTitle('Not Authorized');
    await page.goto('/pages/misc/not-found/anything/here');
    await expect(page).toHaveTitle('Not Found');
    await page.goto('/no-such-page');
    await expect(page).toHaveTitle('Not Found');
  });

  test('rule 6: goes to /login with the query and `to`, and lands there after signing in', async ({ page }) => {
    await page.goto('/staffs?page=1&q=ada');
    await expect(page).toHaveURL(/\/login\?/);
    const url = new URL(page.url());
    expect(url.pathname).toBe('/login');
    expect(url.searchParams.get('to')).toBe('/staffs');
    expect(url.searchParams.get('q')).toBe('ada');
    await signInThroughUi(page, ADMIN.email, ADMIN.password);
    await expect(page).toHaveURL(/\/staffs\?.*q=ada/);
    await expect(page.getByRole('heading', { name: 'Staffs' })).toBeVisible();
  });

  test('rule 6: `/` leads to /dashboard and so to /login?to=/dashboard', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/login\?to=%2Fdashboard$/);
  });
});

test.describe('a signed-in admin', () => {
  test.use({ storageState: ADMIN_STATE });

  test('rule 3: unauthenticated-only routes send a signed-in user to /dashboard', async ({ page }) => {
    for (const path of ['/login', '/register', '/forgot-password']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/dashboard$/);
    }
  });

  test('rule 4: a route admits the roles in its list', async ({ page }) => {
    await page.goto('/staffs');
    await expect(page.getByRole('heading', { name: 'Staffs' })).toBeVisible();
    await page.goto('/access-control');
    await expect(page.getByRole('heading', { name: 'Access Control' })).toBeVisible();
    await expect(page.getByRole('cell', { name: 'Manage (everything)' })).toBeVisible();
  });
});

test('rule 5: a signed-in staff member on an admin route goes to not-authorized', async ({ page, browser }) => {
  const adminContext = await browser.newContext({ storageState: ADMIN_STATE });
  const member = await createStaff(adminContext.request);
  await adminContext.close();
  await signInByApi(page.request, member.email, member.password);
  await page.goto('/add-staff');
  await expect(page).toHaveURL(/\/not-authorized$/);
  await page.goto('/access-control');
  await expect(page).toHaveURL(/\/not-authorized$/);
  await page.goto('/products');
  await expect(page.getByRole('heading', { name: 'Products' })).toBeVisible();
});

test.describe('redirects and an ended session', () => {
  test('/, /pages/user-profile and /pages/account-settings redirect', async ({ page, browser }) => {
    const adminContext = await browser.newContext({ storageState: ADMIN_STATE });
    const member = await createStaff(adminContext.request);
    await adminContext.close();
    await signInByApi(page.request, member.email, member.password);
    await page.goto('/');
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto('/pages/user-profile');
    await expect(page).toHaveURL(/\/account-settings\/profile$/);
    await expect(page.getByRole('tab', { name: 'Profile' })).toHaveAttribute('aria-selected', 'true');
    await page.goto('/pages/account-settings');
    await expect(page).toHaveURL(/\/account-settings\/account$/);
    await expect(page.getByRole('tab', { name: 'Account' })).toHaveAttribute('aria-selected', 'true');
  });

  test('a 401 from the API sends the user to /login with `to`', async ({ page, browser }) => {
    const adminContext = await browser.newContext({ storageState: ADMIN_STATE });
    const member = await createStaff(adminContext.request, { role: 'admin' });
    await adminContext.close();
    await signInByApi(page.request, member.email, member.password);
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    // The session ends behind the page's back (signed out elsewhere).
    await page.request.post('/api/v1/auth/logout', { data: {} });
    await page.getByRole('link', { name: 'Staffs' }).click();
    await expect(page).toHaveURL(/\/login\?to=%2Fstaffs$/);
  });
});

test.describe('the console', () => {
  test.use({ storageState: ADMIN_STATE });
  test('stays free of React Router and i18next warnings on / and the not-authorised page says why in words', async ({ page }) => {
    const messages: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'warning' || m.type() === 'error' || m.type() === 'info') messages.push(m.text());
    });
    await page.goto('/');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(messages.filter((m) => /Matched leaf route|React Router|locize/i.test(m))).toEqual([]);
    await page.goto('/not-authorized');
    // In whichever language the account has now (another spec may have switched it).
    const lang = (await page.evaluate(() => document.documentElement.lang)) === 'zh' ? 'zh' : 'en';
    await expect(page.getByText(translate(lang, 'misc.notAuthorized.heading'))).toBeVisible();
    await expect(page.getByRole('link', { name: translate(lang, 'misc.notAuthorized.otherAccount') })).toHaveAttribute('href', '/login');
    await expect(page.getByText(/^401$/)).toHaveCount(0);
  });
});
