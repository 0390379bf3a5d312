/**
 * A staff screen's page arrives with its frame drawn in (src/server/web/staff-shell.ts,
 * docs/decisions/0077-the-staff-page-arrives-with-its-frame.md): before any script has run, a phone shows the
 * bar and the screen's title, a wide screen the navigation's column too, in the visitor's language and theme.
 * The app then replaces it in the commit that draws the screen: at no frame are both in the document. A screen
 * with a line under its title has it in the frame too, where the screen then draws it
 * (docs/decisions/0080-the-frame-carries-the-introduction.md).
 */
import { expect, test, type Locator } from '@playwright/test';
import { staffPage } from './helpers';
import { translator } from './screen-kit';

const tr = translator(['pages', 'app', 'dashboard']);

/** The box of an element's text (not of the element): where its words are, and how wide they run. */
const textBox = (element: Locator) =>
  element.evaluate((e) => {
    const range = document.createRange();
    range.selectNodeContents(e);
    const { x, y, width, height } = range.getBoundingClientRect();
    return { x, y, width, height };
  });

// 920 px: wider than MUI's default `md` (900 px) and narrower than the theme's (960 px), where the frame once
// gave the content its wider padding and the app did not (src/shared/layout-sizes.ts).
for (const [language, width] of [
  ['en', 390],
  ['en', 920],
  ['zh', 1440],
] as const) {
  test(`the page shows the screen's frame before its scripts, and the app replaces it: ${language} at ${width} px`, async ({
    browser,
    baseURL,
  }) => {
    const staff = await staffPage(browser, baseURL!, language, width);
    const { page } = staff;

    // The page as the server sends it, its scripts held back.
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto('/products', { waitUntil: 'commit' });
    const frame = page.locator('#trc-shell');
    await expect(frame.locator('h1')).toHaveText(tr(language, 'pages.products'));
    await expect(frame).toHaveAttribute('aria-hidden', 'true');
    // The navigation's column from 1280 px, the menu button's place below it.
    await expect(frame.locator('.trc-shell-nav')).toBeVisible({ visible: width >= 1280 });
    await expect(frame.locator('.trc-shell-menu')).toBeVisible({ visible: width < 1280 });
    if (width >= 1280) await expect(frame.locator('.trc-shell-nav')).toContainText(tr(language, 'app.title'));
    // Nothing of the frame is in the accessibility tree: the screen's own heading is the only one.
    await expect(page.getByRole('heading')).toHaveCount(0);
    await page.unroute('**/assets/*.js');

    // Every animation frame until the app has started: was the frame still there beside the app's screen?
    await page.addInitScript(() => {
      const w = window as unknown as { bothSeen: boolean };
      w.bothSeen = false;
      const check = () => {
        if (document.getElementById('trc-shell') && document.getElementById('main-content')) w.bothSeen = true;
        if (document.documentElement.dataset.ready !== 'true') requestAnimationFrame(check);
      };
      requestAnimationFrame(check);
    });
    await page.goto('/products');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(tr(language, 'pages.products'));
    await expect(frame).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { bothSeen: boolean }).bothSeen)).toBe(false);
    await staff.context.close();
  });

  test(`the frame carries the line under the title, where the screen draws it: ${language} at ${width} px`, async ({
    browser,
    baseURL,
  }) => {
    const staff = await staffPage(browser, baseURL!, language, width);
    const { page } = staff;
    const intro = tr(language, 'dashboard.intro');
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto('/dashboard', { waitUntil: 'commit' });
    const framed = page.locator('#trc-shell .trc-shell-intro');
    await expect(framed).toHaveText(intro);
    // Measured in Roboto, once it has come: until then the frame draws in a fallback font, a little narrower
    // and a pixel lower (docs/decisions/0080-the-frame-carries-the-introduction.md), and the app's own
    // drawing, measured below, comes after the fonts.
    await page.evaluate(() => document.fonts.ready);
    const before = await textBox(framed);
    await page.unroute('**/assets/*.js');

    await page.goto('/dashboard');
    const drawn = page.getByText(intro, { exact: true });
    await expect(drawn).toBeVisible();
    await expect(page.locator('#trc-shell')).toHaveCount(0);
    const after = await textBox(drawn);
    // Where the frame had it, its words as wide: the screen does not move as it replaces the frame, and its
    // largest text is not drawn anew.
    expect(Math.abs(after.x - before.x)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(after.y - before.y)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(after.width - before.width)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(after.height - before.height)).toBeLessThanOrEqual(0.5);
    await staff.context.close();
  });
}

// A small phone held sideways: narrower than 600 px and wider than high, where MUI's bar is 48 px high.
for (const viewport of [
  { width: 568, height: 320 },
  { width: 390, height: 844 },
]) {
  test(`the frame's bar is as high as the app's: ${viewport.width}×${viewport.height}`, async ({ browser, baseURL }) => {
    const staff = await staffPage(browser, baseURL!, 'en', viewport.width);
    const { page } = staff;
    await page.setViewportSize(viewport);
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto('/dashboard', { waitUntil: 'commit' });
    const framed = (await page.locator('#trc-shell .trc-shell-bar').boundingBox())!;
    await page.unroute('**/assets/*.js');
    await page.goto('/dashboard');
    await expect(page.locator('#trc-shell')).toHaveCount(0);
    const drawn = (await page.locator('header').first().boundingBox())!;
    expect(framed.height).toBe(drawn.height);
    await staff.context.close();
  });
}

test('a visitor without a session gets no frame, and is sent to sign in', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const html = await (await page.request.get('/products')).text();
  expect(html).not.toContain('trc-shell');
  await page.goto('/products');
  await expect(page).toHaveURL(/\/login/);
  await context.close();
});
