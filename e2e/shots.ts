/**
 * Screenshots the browser tests keep for people to look at (e2e/artifacts): every screen in each look. They
 * assert nothing, so a run that nobody looks at (CI: E2E_SCREENSHOTS=off) leaves them out; a failing test
 * still gets Playwright's own screenshot (playwright.config.ts, screenshot: 'only-on-failure').
 */
import type { Locator, Page } from '@playwright/test';

export const SCREENSHOTS_KEPT = process.env.E2E_SCREENSHOTS !== 'off';

export async function keepScreenshot(target: Page | Locator, options: { path: string; fullPage?: boolean }): Promise<void> {
  if (!SCREENSHOTS_KEPT) return;
  if ('goto' in target) await target.screenshot(options);
  else await target.screenshot({ path: options.path });
}
