/**
 * A staff screen's page lists the modules the screen needs (docs/decisions/0075-screens-preload-their-modules.md):
 * the browser fetches them from the page itself, and the app, as it starts and loads the screen, adds no
 * module link of its own. Checked on a list, the Quality screen and the not-found page (the blank layout), in
 * both languages: each language's catalogue comes listed too.
 */
import { expect, test } from '@playwright/test';
import { staffPage } from './helpers';
import { translator } from './screen-kit';

const tr = translator(['pages', 'quality']);

/** The module links of the page as the server sent it, before any script. */
const listed = (html: string) => [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]!);

for (const [language, width] of [
  ['en', 390],
  ['zh', 1440],
] as const) {
  test(`a screen's modules come listed in its page, and the app adds none: ${language} at ${width} px`, async ({ browser, baseURL }) => {
    const staff = await staffPage(browser, baseURL!, language, width);
    const { page } = staff;
    // Every module link the page's scripts add to the document, from before the first one runs.
    await page.addInitScript(() => {
      const added: string[] = [];
      (window as unknown as { addedModuleLinks: string[] }).addedModuleLinks = added;
      const append = Node.prototype.appendChild;
      Node.prototype.appendChild = function <T extends Node>(this: Node, child: T): T {
        if (child instanceof HTMLLinkElement && child.rel === 'modulepreload') added.push(new URL(child.href).pathname);
        return append.call(this, child) as T;
      };
    });
    for (const [path, heading] of [
      ['/products', 'pages.products'],
      ['/machine-data/quality', 'quality.title'],
      ['/no-such-screen', 'pages.notFound'],
    ] as const) {
      const served = listed(await (await page.request.get(path)).text());
      expect(served.length, path).toBeGreaterThan(20);
      expect(
        served.some((f) => f.includes(`catalogue-${language}`)),
        path,
      ).toBe(true);
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 }).first()).toHaveText(tr(language, heading));
      await page.waitForLoadState('networkidle');
      expect(await page.evaluate(() => (window as unknown as { addedModuleLinks: string[] }).addedModuleLinks), path).toEqual([]);
      // What the page asked for is what it then ran: every module the document has, the server listed.
      const inDocument = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((l) => new URL(l.href).pathname),
      );
      expect(
        inDocument.filter((f) => !served.includes(f) && !f.includes('modulepreload-polyfill')),
        path,
      ).toEqual([]);
    }
    await staff.context.close();
  });
}

test("a staff screen's page preloads the one Roboto face its frame does not draw in, and the screen uses it", async ({
  browser,
  baseURL,
}) => {
  const staff = await staffPage(browser, baseURL!, 'en', 390);
  const { page } = staff;
  const html = await (await page.request.get('/products')).text();
  const fonts = [...html.matchAll(/<link rel="preload" as="font" type="font\/woff2" crossorigin href="([^"]+)">/g)].map((m) => m[1]!);
  expect(fonts).toHaveLength(1);
  expect(fonts[0]).toMatch(/^\/assets\/roboto-latin-500-normal-[\w-]+\.woff2$/);
  // The preload is used, not fetched twice: the screen's text in 500 asks for no other copy of it.
  const fetched: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('.woff2')) fetched.push(new URL(r.url()).pathname);
  });
  await page.goto('/products');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(fetched.filter((f) => f === fonts[0])).toHaveLength(1);
  expect(await page.evaluate(() => document.fonts.check('500 16px Roboto'))).toBe(true);
  await staff.context.close();
});

test('a screen every signed-in user may open asks for its data beside the session check; an admin screen after it', async ({
  browser,
  baseURL,
}) => {
  const staff = await staffPage(browser, baseURL!, 'en', 390);
  const { page } = staff;
  // The session's answer held back until the screen's data has been asked for, or for 5 s.
  let listAsked!: () => void;
  const asked = new Promise<void>((resolve) => (listAsked = resolve));
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/v1/products') listAsked();
  });
  let early = false;
  await page.route('**/api/v1/auth/session', async (route) => {
    early = await Promise.race([asked.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 5000))]);
    await route.continue();
  });
  await page.goto('/products');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(early, 'the products were asked for while the session check was unanswered').toBe(true);
  await staff.context.close();

  // The staff list is for administrators: a staff member's browser must not ask for it at all.
  const member = await staffPage(browser, baseURL!, 'en', 390);
  const staffListAsked: string[] = [];
  member.page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/v1/staff') staffListAsked.push(r.url());
  });
  await member.page.goto('/staffs');
  await expect(member.page).toHaveURL(/not-authorized/);
  expect(staffListAsked).toEqual([]);
  await member.context.close();
});
