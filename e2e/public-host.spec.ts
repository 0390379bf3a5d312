/** Guard rule 1: a host name containing "report" (or "client") serves only /search. */
import { expect, test } from '@playwright/test';

test('every route but /search goes to /search on a public host name', async ({ page }) => {
  for (const path of ['/login', '/dashboard', '/staffs', '/not-authorized', '/no-such-page']) {
    await page.goto(path);
    await expect(page).toHaveURL(/report\.test:\d+\/search$/);
    await expect(page).toHaveTitle('Test Report Center');
  }
  await page.goto('/search?serial=VB1');
  await expect(page).toHaveURL(/\/search\?serial=VB1$/);
  // A nameplate's identification link stays on the host it was scanned on.
  await page.goto('/id/VB2');
  await expect(page).toHaveURL(/report\.test:\d+\/search\?serial=VB2$/);
});

test('in-app navigation on a public host name also stays on /search', async ({ page }) => {
  await page.goto('/search');
  await expect(page.locator('h1')).toBeVisible();
  // The footer-less blank page has no links to staff screens; navigate through history as a link would.
  await page.evaluate(() => {
    window.history.pushState({}, '', '/login');
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page).toHaveURL(/\/search$/);
});
