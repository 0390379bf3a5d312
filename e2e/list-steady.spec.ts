/**
 * The products list, the serial numbers list, the dashboard and the Quality screen load without moving what is below them
 * (docs/decisions/0068-staff-pages-on-a-phone.md): while the answer is on its way, skeletons as tall as the
 * rows (or the figure cards) hold their place, so its arrival shifts nothing on a 390 px phone or at 1440 px. The list's answer is held back, as a
 * slow network would, longer than the first screen waits for its data (src/web/app/router.tsx,
 * docs/decisions/0082-the-first-screen-waits-on-less.md), so that the skeletons are drawn first; the shifts are
 * the browser's own measure. An answer that comes within that wait is drawn at once, without skeletons.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { createProduct, createRange, stamp } from './catalogue-helpers';
import { ADMIN_STATE } from './helpers';

declare global {
  interface Window {
    shifted?: number;
    skeletons?: boolean;
  }
}

/** Longer than the first screen waits for its data (FIRST_DATA_WAIT_MS, 1.5 s). */
const SLOW_ANSWER_MS = 2500;

/** The serial ranges' product and prefixes: new for each worker that runs the file. */
const RANGES = stamp().toUpperCase();

test.beforeAll(async ({ browser }) => {
  // A full page (10) at least, some with every line a product can show.
  const admin = await browser.newContext({ storageState: ADMIN_STATE });
  for (let i = 0; i < 10; i++) {
    const s = stamp().toUpperCase();
    await createProduct(
      admin.request,
      i % 2
        ? {
            name: `DN${50 + i} PN40 Cast Steel Gate Valve ${s}`,
            testStandard: 'api-598',
            valveType: 'gate',
            nominalSize: 50,
            seatType: 'metal',
            pressureClass: 'CL300',
            pressureWcb: 2.5,
          }
        : { name: `Steady ${s}` },
    );
  }
  // A page of ranges (10) of one product, found by its name; their prefixes are this run's own.
  const product = await createProduct(admin.request, { name: `Steady ranges ${RANGES}` });
  for (let i = 0; i < 10; i++) {
    const prefix = `SQ${RANGES}-${String.fromCharCode(65 + i)}-`;
    await createRange(admin.request, {
      productId: product.id,
      startSerial: `${prefix}000001`,
      endSerial: `${prefix}000050`,
      totalUnits: 50,
    });
  }
  await admin.close();
});

/**
 * The page at `width` with its answer from `api` held back `holdMs`; `arrived` waits for what the answer draws.
 * The layout shifts, and whether a skeleton was ever drawn.
 */
async function loadOf(
  browser: Browser,
  width: number,
  path: string,
  api: string,
  arrived: (page: Page) => Promise<void>,
  holdMs = SLOW_ANSWER_MS,
): Promise<{ shifted: number; skeletons: boolean }> {
  const context = await browser.newContext({ storageState: ADMIN_STATE, viewport: { width, height: width < 600 ? 844 : 900 } });
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.shifted = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) window.shifted! += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
    window.skeletons = false;
    new MutationObserver(() => {
      if (document.querySelector('.MuiSkeleton-root')) window.skeletons = true;
    }).observe(document, { childList: true, subtree: true });
  });
  await page.route(api, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, holdMs));
    await route.continue();
  });
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await arrived(page);
  await page.waitForLoadState('networkidle');
  const seen = await page.evaluate(() => ({ shifted: window.shifted ?? NaN, skeletons: window.skeletons ?? false }));
  await context.close();
  return seen;
}

/** The layout shifts of a page whose answer comes after the first screen's wait, checking its skeletons came first. */
async function shiftOf(...args: Parameters<typeof loadOf>): Promise<number> {
  const { shifted, skeletons } = await loadOf(...args);
  expect(skeletons, 'skeletons held the place of the late answer').toBe(true);
  return shifted;
}

for (const width of [390, 1440]) {
  test(`the products list arrives without a layout shift at ${width} px`, async ({ browser }) => {
    // The rows, not their skeletons.
    const shifted = await shiftOf(browser, width, '/products', '**/api/v1/products?**', (page) =>
      expect(page.getByText(/^(Steady|DN\d+ PN40 Cast Steel Gate Valve) /).first()).toBeVisible(),
    );
    // Before: 0.11 on the phone (the pagination and footer pushed off the screen) and 0.05 at 1440 px.
    expect(shifted).toBeLessThan(0.01);
  });

  test(`the serial numbers list arrives without a layout shift at ${width} px`, async ({ browser }) => {
    const shifted = await shiftOf(
      browser,
      width,
      `/serial-numbers?q=${encodeURIComponent(`Steady ranges ${RANGES}`)}`,
      '**/api/v1/serial-ranges?**',
      (page) => expect(page.getByText(`SQ${RANGES}-A-000001`).first()).toBeVisible(),
    );
    // Before: 0.11 on the phone (three short skeletons, then ten cards).
    expect(shifted).toBeLessThan(0.01);
  });

  test(`the dashboard's figures arrive without a layout shift at ${width} px`, async ({ browser }) => {
    const shifted = await shiftOf(browser, width, '/dashboard', '**/api/v1/dashboard', (page) =>
      expect(page.getByTestId('requests-chart')).toBeVisible(),
    );
    // Before: 0.055 (a skeleton 240 px tall gave way to the figure cards and the chart).
    expect(shifted).toBeLessThan(0.01);
  });

  test(`the Quality screen's figures arrive without a layout shift at ${width} px`, async ({ browser }) => {
    const shifted = await shiftOf(browser, width, '/machine-data/quality', '**/api/v1/quality/summary?**', (page) =>
      expect(page.locator('#yield-time-title')).toBeVisible(),
    );
    // Before: 0.39 on a phone (a skeleton 120 px tall, then figures taller than the screen pushed the sections
    // below it away).
    expect(shifted).toBeLessThan(0.01);
  });
}

test("an answer within the first screen's wait is drawn with the screen: no skeleton, no shift", async ({ browser }) => {
  const { shifted, skeletons } = await loadOf(
    browser,
    390,
    '/products',
    '**/api/v1/products?**',
    (page) => expect(page.getByText(/^(Steady|DN\d+ PN40 Cast Steel Gate Valve) /).first()).toBeVisible(),
    200,
  );
  expect(skeletons).toBe(false);
  expect(shifted).toBeLessThan(0.01);
});
