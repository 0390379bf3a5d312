/** Shared steps of the end-to-end tests: accounts, signing in through the UI or the API, the mail outbox. */
import fs from 'node:fs';
import path from 'node:path';
import { expect, type APIRequestContext, type Browser, type Locator, type Page } from '@playwright/test';
import PostalMime from 'postal-mime';

export const ADMIN = { name: 'Ada Admin', email: 'ada@example.com', password: 'correct horse battery staple' };
export function dataDir(): string {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set (playwright.config.ts sets it)');
  return dir;
}

/** The first admin's signed-in browser state; per run (beside its database), so parallel runs never share a cookie. */
export const ADMIN_STATE = path.join(dataDir(), 'admin-state.json');

export async function signInThroughUi(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

/** Signs in through the API; the session cookie lands in the page's browser context. */
export async function signInByApi(request: APIRequestContext, email: string, password: string): Promise<void> {
  const res = await request.post('/api/v1/auth/login', { data: { email, password } });
  expect(res.status(), await res.text()).toBe(200);
}

let counter = 0;
/** A new staff member made by the signed-in admin's request context. */
export async function createStaff(
  request: APIRequestContext,
  overrides: Partial<{ name: string; email: string; password: string; role: 'admin' | 'staff' }> = {},
) {
  counter += 1;
  const stamp = `${Date.now().toString(36)}${counter}`;
  const member = {
    name: `Sam Staff ${stamp}`,
    email: `sam.${stamp}@example.com`,
    password: 'staff password 123',
    role: 'staff' as const,
    ...overrides,
  };
  const res = await request.post('/api/v1/staff', { data: member });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return member;
}

/** The newest email sent to `to`, as the mail catcher of serve-snapshot.mjs received it; waits for the outbox worker. */
export async function waitForEmail(to: string, timeoutMs = 20_000): Promise<{ subject: string; text: string; html: string }> {
  const dir = path.join(dataDir(), 'smtp-inbox');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const files = fs.existsSync(dir)
      ? fs
          .readdirSync(dir)
          .filter((f) => f.endsWith('.eml'))
          .sort()
          .reverse()
      : [];
    for (const f of files) {
      const email = await PostalMime.parse(fs.readFileSync(path.join(dir, f)));
      if (email.to?.some((a) => 'address' in a && a.address?.toLowerCase() === to.toLowerCase())) {
        return { subject: email.subject ?? '', text: email.text ?? '', html: email.html ?? '' };
      }
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no email to ${to} in ${dir}`);
}

/** A staff member of its own (not an admin: addresses are masked), signed in in a fresh context in `lang`. */
export async function staffPage(browser: Browser, baseURL: string, lang: 'en' | 'zh', width: number) {
  const first = await browser.newContext({ storageState: ADMIN_STATE });
  const member = await createStaff(first.request, { role: 'staff' });
  await first.close();
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  await context.addCookies([{ name: 'test-report-center-language', value: lang, domain: new URL(baseURL).hostname, path: '/' }]);
  await signInByApi(context.request, member.email, member.password);
  expect((await context.request.patch('/api/v1/auth/me', { data: { language: lang } })).ok()).toBe(true);
  return { context, page: await context.newPage() };
}

/**
 * Chooses `option` in a list's filter (src/web/components/filter-select.tsx), checking that it is the phone's
 * own select below 600 px and MUI's menu select wider.
 */
export async function chooseFilter(page: Page, field: Locator, option: string): Promise<void> {
  const phone = page.viewportSize()!.width < 600;
  expect(await field.evaluate((e) => e.tagName), "a list filter is the phone's own select below 600 px").toBe(phone ? 'SELECT' : 'DIV');
  if (phone) {
    await field.selectOption({ label: option });
    return;
  }
  // The menu is placed against the field, which a face arriving late can move; a click that then misses the
  // option lands on the menu's backdrop and closes it with nothing chosen. Such a miss is chosen again.
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await expect(async () => {
    if (!(await page.getByRole('listbox').isVisible())) await field.click();
    await page.getByRole('option', { name: option, exact: true }).click({ timeout: 5_000 });
    await expect(field).toHaveText(option, { timeout: 2_000 });
  }, `the filter shows "${option}" once chosen`).toPass();
}
