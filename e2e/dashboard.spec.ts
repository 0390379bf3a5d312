/**
 * The staff dashboard, web side: a product with a range of 100 units, six units tested today
 * (two failing their first attempt) and two not-found lookups; a staff member sees the figures the API
 * answers (the run's database is shared with other specs, so counts are compared with the API, not fixed),
 * the 30 bars of requests per day with today's lookups, and the last report requests. In English and
 * Chinese at 1440 and 390 px, with screenshots under e2e/artifacts/dashboard and an axe-core check.
 */
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { Dashboard } from '../src/shared/contract/dashboard';
import { createProduct, createRange, stamp } from './catalogue-helpers';
import { ADMIN_STATE, chooseFilter, staffPage } from './helpers';
import { expectAxeClean, translator, type Language } from './screen-kit';
import { widthsFor } from './looks';
import { keepScreenshot } from './shots';

const OUT = path.join('e2e', 'artifacts', 'dashboard');
const translate = translator(['dashboard']);
const tr = (lang: Language, key: string, params: Record<string, unknown> = {}) => translate(lang, `dashboard.${key}`, params);

async function shot(page: Page, lang: Language) {
  const width = page.viewportSize()?.width ?? 1440;
  await page.waitForTimeout(300);
  await keepScreenshot(page, { path: path.join(OUT, `dashboard-${lang}-${width}.png`), fullPage: true });
  await expectAxeClean(page, `${lang} ${width}`);
}

const nf = (lang: Language, n: number) => new Intl.NumberFormat(lang === 'zh' ? 'zh-TW' : 'en').format(n);

test.describe.configure({ mode: 'serial' });

let world: { productId: string; prefix: string };

test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext({ storageState: ADMIN_STATE });
  const request = context.request;
  const s = stamp().toUpperCase();
  const prefix = `DS${s}-`;
  const product = await createProduct(request, { name: `Dashboard Valve ${s}`, pressureFc: null, pressureWcb: 1.6 });
  world = { productId: product.id, prefix };
  await createRange(request, { productId: product.id, startSerial: `${prefix}0001`, endSerial: `${prefix}0100`, totalUnits: 100 });
  const bench = await request.post('/api/v1/machines', { data: { name: `Dashboard Bench ${s}` } });
  expect(bench.status(), await bench.text()).toBe(201);
  const key = ((await bench.json()) as { data: { key: string } }).data.key;
  const base = {
    medium: 'water',
    holdingSeconds: 60,
    leakageValue: null,
    leakageUnit: null,
    operator: 'Lin',
    testType: 'shell',
    testPressure: 2.4,
  };
  const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
  const records = [1, 2, 3, 4, 5, 6].map((n) => ({
    ...base,
    recordId: `${s}-${n}`,
    serial: `${prefix}000${n}`,
    result: n <= 2 ? 'fail' : 'pass',
    testedAt: at(30),
  }));
  records.push({ ...base, recordId: `${s}-1b`, serial: `${prefix}0001`, result: 'pass', testedAt: at(20) });
  const res = await request.post('/api/v1/machine-data', { headers: { authorization: `Bearer ${key}` }, data: { records } });
  expect(res.status(), await res.text()).toBe(200);
  for (const n of [101, 102])
    expect((await request.post('/api/v1/public/lookup', { data: { serial: `${prefix}0${n}` } })).status()).toBe(404);
  await context.close();
});

for (const lang of ['en', 'zh'] as const) {
  for (const width of widthsFor(lang, 1440)) {
    test(`dashboard: the figures the API answers, requests per day, last requests (${lang}, ${width})`, async ({ browser, baseURL }) => {
      const { context, page } = await staffPage(browser, baseURL!, lang, width);
      await page.goto('/dashboard');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByTestId('requests-chart')).toBeVisible();
      // Not-found lookups are written just after the answers: wait for today's bar to hold them.
      await expect
        .poll(
          async () =>
            ((await (await context.request.get('/api/v1/dashboard')).json()) as { data: Dashboard }).data.requests.perDay.at(-1)!.notFound,
        )
        .toBeGreaterThanOrEqual(2);
      await page.reload();
      const d = ((await (await context.request.get('/api/v1/dashboard')).json()) as { data: Dashboard }).data;
      expect(d.firstPass.units).toBeGreaterThanOrEqual(6);
      await expect(page.getByTestId('dashboard-value-products')).toHaveText(nf(lang, d.products));
      await expect(page.getByTestId('dashboard-value-serials')).toHaveText(nf(lang, d.serials.units));
      await expect(page.getByTestId('dashboard-card-serials')).toContainText(
        tr(lang, 'cards.serialsDetail', { ranges: nf(lang, d.serials.ranges) }),
      );
      await expect(page.getByTestId('dashboard-value-requests')).toHaveText(nf(lang, d.requests.total));
      await expect(page.getByTestId('dashboard-card-first-pass')).toContainText(
        tr(lang, 'cards.firstPassDetail', { part: nf(lang, d.firstPass.firstPass), whole: nf(lang, d.firstPass.units), days: 30 }),
      );
      await expect(page.getByTestId('dashboard-card-mail')).toContainText(tr(lang, 'cards.mailQueued', { count: nf(lang, d.mail.queued) }));
      await expect(page.getByTestId('dashboard-value-last-received')).not.toHaveText(tr(lang, 'cards.lastReceivedNone'));
      await expect(page.getByTestId('requests-bar')).toHaveCount(30);
      await expect(page.getByTestId('requests-bar').last()).toHaveAttribute('data-requests', String(d.requests.perDay.at(-1)!.requests));
      if (d.recentRequests.length > 0) {
        await expect(page.getByTestId('recent-requests').getByRole('listitem')).toHaveCount(d.recentRequests.length);
        expect(d.recentRequests.every((r) => r.email === null || r.email.includes('***'))).toBe(true);
      } else {
        await expect(page.getByText(tr(lang, 'recent.empty'))).toBeVisible();
      }
      // Nothing important scrolls off sideways on a phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot(page, lang);
      await context.close();
    });
  }
}

const trq = translator(['quality']);

for (const lang of ['en', 'zh'] as const) {
  for (const width of widthsFor(lang, 390)) {
    test(`held units: the worklist from the dashboard, filtered, and a held unit's page says why (${lang}, ${width})`, async ({
      browser,
      baseURL,
    }) => {
      const { context, page } = await staffPage(browser, baseURL!, lang, width);
      await page.goto('/dashboard');
      // The disagreements' card opens the held units, filtered to disagreements.
      await expect(page.getByTestId('dashboard-card-disagreements').getByRole('link')).toHaveAttribute(
        'href',
        /\/machine-data\/held-units\?.*reason=nonconforming/,
      );
      await page.goto(`/machine-data/held-units?productId=${world.productId}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(trq(lang, 'quality.heldUnits.title'));
      // Units 0002 failed its shell test and was never retested; 0001 passed its retest.
      const list = page.getByTestId('held-units');
      await expect(list.getByRole('link', { name: `${world.prefix}0002` })).toBeVisible();
      await expect(list.getByRole('link', { name: `${world.prefix}0001` })).toHaveCount(0);
      await expect(page.getByTestId('held-units-total')).toHaveText(trq(lang, 'quality.heldUnits.count_one', { count: 1 }));
      await expect(list.getByTestId('hold-kind-failed')).toHaveText(trq(lang, 'quality.heldUnits.kinds.failed'));
      // Another reason empties the list; the filter is kept in the address.
      await chooseFilter(page, page.locator('#held-reason'), trq(lang, 'quality.heldUnits.kinds.missing'));
      await expect(page).toHaveURL(/reason=missing/);
      await expect(page.getByText(trq(lang, 'quality.heldUnits.empty'))).toBeVisible();
      await expect(page.getByTestId('export-csv')).toHaveAttribute(
        'href',
        new RegExp(`/api/v1/held-units/export.csv\\?.*productId=${world.productId}.*reason=missing`),
      );
      await page.goto(`/machine-data/held-units?productId=${world.productId}`);
      // A range longer than the list takes is said at once, in the page's language.
      await page.goto(`/machine-data/held-units?productId=${world.productId}&from=2025-01-01&to=2025-03-31`);
      await expect(page.getByTestId('held-range-too-long')).toHaveText(trq(lang, 'quality.validation.heldRangeTooLong'));
      await page.goto(`/machine-data/held-units?productId=${world.productId}`);
      await list.getByRole('link', { name: `${world.prefix}0002` }).click();
      const banner = page.getByTestId('unit-release');
      await expect(banner).toHaveAttribute('data-status', 'held');
      await expect(banner).toContainText(trq(lang, 'quality.heldUnits.unit.held'));
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await keepScreenshot(page, { path: path.join(OUT, `held-unit-${lang}-${width}.png`), fullPage: true });
      await page.goto(`/machine-data/held-units?productId=${world.productId}`);
      await expect(list).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await keepScreenshot(page, { path: path.join(OUT, `held-units-${lang}-${width}.png`), fullPage: true });
      await expectAxeClean(page, `held units ${lang} ${width}`);
      await context.close();
    });
  }
}
