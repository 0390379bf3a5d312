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
