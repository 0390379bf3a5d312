/**
 * Quality analysis and the audit trail, web side: a month of hand-made test records (ten units,
 * two retested, one failed and never retested, and a product's shell pressures for the control chart);
 * the Quality tab shows the yields, the Pareto opens the failed records in Machine Data, the failure list
 * names the unit, the control chart shows its limits and Cpk; the admin's audit trail filters by record,
 * user and days, and a product's history card links to it. In English and Chinese, at 1440 and 390 px,
 * with screenshots under e2e/artifacts/insight and an axe-core check.
 */
import path from 'node:path';
import { expect, test, type Browser } from '@playwright/test';
import { createProduct, createRange, stamp } from './catalogue-helpers';
import { ADMIN_STATE, chooseFilter, createStaff, signInByApi } from './helpers';
import { screenshotter, translator, type Language } from './screen-kit';
import { widthsFor } from './looks';

const OUT = path.join('e2e', 'artifacts', 'insight');
const tr = translator(['quality', 'audit']);

const shot = screenshotter(OUT);

/** An admin of its own, signed in in a fresh context in `lang`. */
async function adminPage(browser: Browser, baseURL: string, lang: Language, width: number) {
  const first = await browser.newContext({ storageState: ADMIN_STATE });
  const member = await createStaff(first.request, { role: 'admin' });
  await first.close();
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  await context.addCookies([{ name: 'test-report-center-language', value: lang, domain: new URL(baseURL).hostname, path: '/' }]);
  await signInByApi(context.request, member.email, member.password);
  expect((await context.request.patch('/api/v1/auth/me', { data: { language: lang } })).ok()).toBe(true);
  return { context, page: await context.newPage(), email: member.email };
}

// A month nobody else's tests use: the analysis counts every record of its days.
const FROM = '2023-06-01';
const TO = '2023-06-30';
const QUALITY = `/machine-data/quality?from=${FROM}&to=${TO}`;
const world = { productId: '', productName: '', prefix: '' };

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser, baseURL }) => {
  const context = await browser.newContext({ storageState: ADMIN_STATE });
  const request = context.request;
  const s = stamp().toUpperCase();
  world.prefix = `QI${s}-`;
  const product = await createProduct(request, { name: `Insight Valve ${s}`, pressureFc: null, pressureWcb: 1.6 });
  world.productId = product.id;
  world.productName = product.name;
  await createRange(request, {
    productId: product.id,
    startSerial: `${world.prefix}0001`,
    endSerial: `${world.prefix}0100`,
    totalUnits: 100,
    // Made before its tests of June 2023: a test before the production date is nonconforming (decision 0037).
    productionDate: '2023-05-02',
  });
  const bench = await request.post('/api/v1/machines', { data: { name: `Insight Bench ${s}` } });
  expect(bench.status(), await bench.text()).toBe(201);
  const key = ((await bench.json()) as { data: { key: string } }).data.key;
  const base = { medium: 'water', holdingSeconds: 60, leakageValue: null, leakageUnit: null, operator: 'Lin' };
  const serial = (n: number) => `${world.prefix}${String(n).padStart(4, '0')}`;
  const records: Record<string, unknown>[] = [];
  for (let n = 1; n <= 10; n++) {
    const day = String(1 + n).padStart(2, '0');
    // A slow drift up in the shell pressure, so the chart has something to show.
    const pressure = Math.round((2.42 + n * 0.004 + (n % 3) * 0.003) * 1000) / 1000;
    const fails = n === 8 || n === 10;
    records.push({
      ...base,
      recordId: `${s}-S${n}`,
      serial: serial(n),
      testType: 'shell',
      testPressure: pressure,
      result: fails ? 'fail' : 'pass',
      testedAt: `2023-06-${day}T08:00:00Z`,
    });
    if (n === 8)
      records.push({
        ...base,
        recordId: `${s}-S${n}b`,
        serial: serial(n),
        testType: 'shell',
        testPressure: 2.45,
        result: 'pass',
        testedAt: `2023-06-${day}T09:00:00Z`,
      });
    records.push({
      ...base,
      recordId: `${s}-T${n}`,
      serial: serial(n),
      testType: 'seat',
      testPressure: 1.8,
      result: n === 9 ? 'fail' : 'pass',
      testedAt: `2023-06-${day}T10:00:00Z`,
    });
    if (n === 9)
      records.push({
        ...base,
        recordId: `${s}-T${n}b`,
        serial: serial(n),
        testType: 'seat',
        testPressure: 1.8,
        result: 'pass',
        testedAt: `2023-06-${day}T11:00:00Z`,
      });
  }
  const res = await request.post('/api/v1/machine-data', { headers: { authorization: `Bearer ${key}` }, data: { records } });
  expect(res.status(), await res.text()).toBe(200);
  await context.close();
  expect(baseURL).toBeTruthy();
});

for (const lang of ['en', 'zh'] as const) {
  for (const width of widthsFor(lang, 1440)) {
    test(`quality tab: yields, Pareto, never-retested failures and control chart (${lang}, ${width})`, async ({ browser, baseURL }) => {
      const { context, page } = await adminPage(browser, baseURL!, lang, width);
      await page.goto('/machine-data');
      await page.getByRole('link', { name: tr(lang, 'quality.tab') }).click();
      await expect(page).toHaveURL(/\/machine-data\/quality/);
      await page.goto(`${QUALITY}&product=${world.productId}&type=shell&measure=testPressure`);
      await expect(page.getByTestId('quality-card-first-pass')).toContainText('70.0%');
      await expect(page.getByTestId('quality-card-final-pass')).toContainText('90.0%');
      await expect(page.getByTestId('quality-card-retest')).toContainText('20.0%');
      await expect(page.getByTestId('pareto-bar')).toHaveCount(2);
      await expect(page.getByTestId('open-failures')).toContainText(`${world.prefix}0010`);
      await expect(page.getByText(tr(lang, 'quality.held.empty'))).toBeVisible();
      await expect(page.getByTestId('control-chart')).toBeVisible();
      await expect(page.getByTestId('cpk')).toContainText('Cpk');
      await expect(page.getByTestId('control-ucl')).toBeVisible();
      await expect(page.getByTestId('control-legend')).toContainText(tr(lang, 'quality.control.legend.rule'));
      // Limits from the first five days: the drift after them breaks Western Electric's first rule, marked on
      // the chart and named under it in the page's language.
      await page.goto(
        `${QUALITY}&product=${world.productId}&type=shell&measure=testPressure&baselineFrom=2023-06-02&baselineTo=2023-06-06`,
      );
      await expect(page.getByTestId('rule-mark').first()).toBeVisible();
      expect(await page.getByTestId('rule-mark').last().getAttribute('data-rules')).toContain('we1');
      await expect(page.getByTestId('rule-breaks')).toContainText(tr(lang, 'quality.control.rule.we1'));
      await expect(page.locator('#quality-baselineFrom')).toHaveValue(/.+/);
      await shot(page, 'quality', lang);
      await context.close();
    });
  }

  test(`Pareto bar opens the failed records in Machine Data (${lang})`, async ({ browser, baseURL }) => {
    const { context, page } = await adminPage(browser, baseURL!, lang, 1440);
    await page.goto(QUALITY);
    await page.getByTestId('pareto-bar').first().click();
    await expect(page).toHaveURL(new RegExp(`/machine-data\\?result=fail&from=${FROM}&to=${TO}&type=shell`));
    await expect(page.getByText(`${world.prefix}0008`).first()).toBeVisible();
    await expect(page.getByText(`${world.prefix}0010`).first()).toBeVisible();
    await expect(page.getByText(`${world.prefix}0009`)).toHaveCount(0);
    await shot(page, 'pareto-records', lang);
    await context.close();
  });

  for (const width of widthsFor(lang, 390)) {
    test(`audit trail: a product's history links to it; filters by record, user and days (${lang}, ${width})`, async ({
      browser,
      baseURL,
    }) => {
      const { context, page, email } = await adminPage(browser, baseURL!, lang, width);
      const renamed = `${world.productName} ${lang}${width}`;
      const res = await page.request.put(`/api/v1/products/${world.productId}`, {
        data: {
          name: renamed,
          fluid: 'water',
          connection: 'Flange',
          application: 'Waterworks',
          applicationMedium: 'Water',
          pressureFc: '',
          pressureWcb: 1.6,
          pressureSus: '',
          temperatureMax: 120,
          temperatureMin: -10,
        },
      });
      expect(res.status(), await res.text()).toBe(200);
      world.productName = renamed;
      await page.goto(`/edit-product/${world.productId}`);
      await page.getByTestId('history-audit-link').click();
      await expect(page).toHaveURL(new RegExp(`/audit-log\\?entity=product&entityId=${world.productId}`));
      await expect(page.getByTestId('audit-record-filter')).toBeVisible();
      const first = page.getByTestId('audit-entry').first();
      await expect(first).toContainText(email);
      await expect(first.getByTestId('audit-diff')).toContainText(renamed);
      await shot(page, 'audit-record', lang);

      await page.goto('/audit-log');
      await chooseFilter(page, page.locator('#audit-actor'), email);
      await expect(page).toHaveURL(new RegExp(`actor=${encodeURIComponent(email).replace(/\./g, '\\.')}`));
      await expect(page.getByTestId('audit-entry').first()).toContainText(email);
      await page.locator('#audit-to').fill('2020-01-01');
      await expect(page.getByText(tr(lang, 'audit.empty'))).toBeVisible();
      await page.reload();
      await expect(page.getByText(tr(lang, 'audit.empty'))).toBeVisible();
      await page.getByRole('button', { name: tr(lang, 'audit.filters.clear') }).click();
      await expect(page.getByTestId('audit-entry').first()).toBeVisible();
      await shot(page, 'audit', lang);
      await context.close();
    });
  }
}
