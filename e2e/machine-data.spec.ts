/**
 * Machine data, web side: an admin creates a bench and sees its key once, the bench posts a batch
 * with that key, a CSV with a bad row is refused and a good one imported, the list is filtered (all in the
 * URL), a record opens with its pressure chart, a unit's history lists its tests; in English and Chinese,
 * at 1440 and 390 px, with screenshots under e2e/artifacts/machine-data and an axe-core check.
 */
import fs from 'node:fs';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { createProduct, createRange, stamp, staffBrowser } from './catalogue-helpers';
import {
  adminBrowser,
  countSeries,
  createBench,
  CSV_HEADER,
  csvRows,
  curve,
  MONTH,
  OUT,
  postBatch,
  records,
  shot,
  tr,
  translate,
  type Batch,
} from './machine-data-helpers';

/** Nothing wider than the screen: neither the page nor the unit's table (which would scroll inside its card). */
async function expectFits(page: Page) {
  const overflow = await page.evaluate(() => {
    const widest = (el: Element | null) => (el ? el.scrollWidth - el.clientWidth : 0);
    return Math.max(widest(document.documentElement), widest(document.querySelector('[data-testid="unit-tests"]')));
  });
  expect(overflow).toBeLessThanOrEqual(0);
}

for (const lang of ['en', 'zh'] as const) {
  test.describe(`machine data in ${lang}`, () => {
    test.describe.configure({ mode: 'serial' });
    let context: BrowserContext;
    let page: Page;
    let batch: Batch;
    let key = '';
    const bench = `${lang === 'zh' ? '測試台' : 'Bench'} ${stamp()}`;

    test.beforeAll(async ({ browser, baseURL }) => {
      fs.mkdirSync(OUT, { recursive: true });
      ({ context, page } = await adminBrowser(browser, baseURL!, lang));
      const prefix = `MD${stamp().toUpperCase()}-`;
      const product = await createProduct(context.request, {
        name: `${lang === 'zh' ? '閘閥' : 'Gate Valve'} DN50 ${stamp()}`,
        pressureWcb: 1.6,
      });
      await createRange(context.request, {
        productId: product.id,
        startSerial: `${prefix}000001`,
        endSerial: `${prefix}000100`,
        totalUnits: 100,
      });
      batch = { prefix, product, unmatched: `UX${stamp().toUpperCase()}-000001` };
    });

    test.afterAll(async () => {
      await context.close();
    });

    test('an admin creates a bench from Machine Data and sees its key once', async () => {
      await page.goto('/machine-data');
      await page
        .getByRole('link', { name: tr(lang, 'benches.title') })
        .first()
        .click();
      await expect(page).toHaveURL(/\/machines$/);
      await expect(page.getByRole('heading', { level: 1, name: tr(lang, 'benches.title') })).toBeVisible();
      key = await createBench(page, lang, bench);
      await shot(page, 'bench-key', lang);
      await page.getByRole('button', { name: tr(lang, 'key.done') }).click();
      await expect(page.getByRole('dialog')).toHaveCount(0);
      const row = page.locator('tbody tr, [data-testid=row-card]').filter({ hasText: bench });
      await expect(row).toContainText(`${key.slice(0, 13)}…`);
      await expect(row).toContainText(tr(lang, 'benches.never'));
      // Shown once: nowhere on the page after the dialog, nor after a reload.
      await page.reload();
      await expect(row).toBeVisible();
      expect(await page.content()).not.toContain(key);
    });

    test('the bench posts a batch with its key; it is counted and its key use shown', async () => {
      const res = await postBatch(page.request, key, { records: records(batch) });
      expect(res.status(), await res.text()).toBeLessThan(300);
      expect(((await res.json()) as { data: { stored: number } }).data.stored).toBe(5);
      // Again: nothing is stored twice.
      const again = await postBatch(page.request, key, { records: records(batch) });
      expect(((await again.json()) as { data: { stored: number; duplicates: string[] } }).data).toMatchObject({ stored: 0 });
      await page.goto(`/machines?q=${encodeURIComponent(bench)}`);
      const row = page.locator('tbody tr, [data-testid=row-card]').filter({ hasText: bench });
      await expect(row).toContainText('5');
      await expect(row).not.toContainText(tr(lang, 'benches.never'));
      await shot(page, 'benches', lang);
    });

    test('CSV: a file with a bad row is refused and stores nothing, then a good one is imported', async () => {
      const series = `CS${stamp().toUpperCase()}-`;
      const bad = [...csvRows(series), `${series}C3,${series}000003,lava,water,2.4,60,,,pass,${MONTH}-20T08:20:00Z,Lin`];
      await page.goto('/machine-data');
      const [template] = await Promise.all([page.waitForEvent('download'), page.getByTestId('csv-template').click()]);
      expect(template.suggestedFilename()).toBe('machine-data-template.csv');
      await page.getByTestId('csv-import').click();
      const dialog = page.getByRole('dialog');
      await expect(dialog.getByRole('heading', { name: tr(lang, 'import.title') })).toBeVisible();
      await dialog
        .getByTestId('import-file')
        .setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(`\uFEFF${CSV_HEADER}\r\n${bad.join('\r\n')}\r\n`) });
      await expect(dialog.getByTestId('import-invalid')).toBeVisible();
      const errorRow = dialog.getByRole('row').filter({ hasText: tr(lang, 'fields.testType') });
      await expect(errorRow).toContainText('4');
      await expect(dialog.getByTestId('import-confirm')).toBeDisabled();
      await shot(page, 'import-errors', lang);
      expect(await countSeries(page.request, series)).toBe(0);

      await dialog
        .getByTestId('import-file')
        .setInputFiles({ name: 'good.csv', mimeType: 'text/csv', buffer: Buffer.from(`${CSV_HEADER}\n${csvRows(series).join('\n')}\n`) });
      await expect(dialog.getByTestId('import-valid')).toHaveText(tr(lang, 'import.valid', { count: 2 }));
      expect(await countSeries(page.request, series)).toBe(0);
      await dialog.getByTestId('import-confirm').click();
      await expect(page.getByText(tr(lang, 'import.stored', { count: 2 }))).toBeVisible();
      await expect(dialog).toBeHidden();
      expect(await countSeries(page.request, series)).toBe(2);
      // The uploaded records are in the list, from "CSV upload".
      await page.getByTestId('table-search').fill(series);
      await expect(page.locator('tbody tr')).toHaveCount(2);
      await expect(page.locator('tbody tr').first()).toContainText(tr(lang, 'list.csvUpload'));
    });

    test('CSV: records with a samples file chosen in the dialog', async () => {
      const series = `CT${stamp().toUpperCase()}-`;
      const samples = ['recordId,t,p', ...curve(50, 2.4, 20).map((x) => `${series}C1,${x.t},${x.p}`)].join('\r\n');
      await page.goto('/machine-data');
      await page.getByTestId('csv-import').click();
      const dialog = page.getByRole('dialog');
      await dialog
        .getByTestId('import-file-samples')
        .setInputFiles({ name: 'samples.csv', mimeType: 'text/csv', buffer: Buffer.from(samples) });
      await dialog
        .getByTestId('import-file')
        .setInputFiles({ name: 'good.csv', mimeType: 'text/csv', buffer: Buffer.from(`${CSV_HEADER}\n${csvRows(series).join('\n')}\n`) });
      await expect(dialog.getByTestId('import-valid')).toHaveText(tr(lang, 'import.valid', { count: 2 }));
      await dialog.getByTestId('import-confirm').click();
      await expect(dialog).toBeHidden();
      await page.goto(`/machine-data?q=${series}000001`);
      await page.getByRole('link', { name: tr(lang, 'list.openRecord', { recordId: `${series}C1` }) }).click();
      await expect(page.getByText(tr(lang, 'chart.samples', { formatted: '50' }))).toBeVisible();
    });

    test('the list filters by serial, result, test type, bench, matching and dates, in the URL', async () => {
      await page.goto('/machine-data');
      await page.getByTestId('table-search').fill(batch.prefix.toLowerCase());
      await expect(page).toHaveURL(new RegExp(`q=${batch.prefix.toLowerCase()}`));
      const rows = page.locator('tbody tr');
      await expect(rows).toHaveCount(4);
      await shot(page, 'machine-data', lang);

      await page.getByLabel(tr(lang, 'fields.result'), { exact: true }).click();
      await page.getByRole('option', { name: tr(lang, 'results.fail'), exact: true }).click();
      await expect(page).toHaveURL(/result=fail/);
      await expect(rows).toHaveCount(1);
      await expect(rows.first().getByRole('link', { name: tr(lang, 'list.openRecord', { recordId: `${batch.prefix}R2` }) })).toBeVisible();
      await expect(page.getByTestId('export-csv')).toHaveAttribute('href', /result=fail/);

      // Back restores the previous filter.
      await page.goBack();
      await expect(rows).toHaveCount(4);

      await page.getByLabel(tr(lang, 'fields.testType'), { exact: true }).click();
      await page.getByRole('option', { name: tr(lang, 'testTypes.seat'), exact: true }).click();
      await expect(page).toHaveURL(/type=seat/);
      await expect(rows).toHaveCount(2);
      await page.getByLabel(tr(lang, 'list.testedFrom'), { exact: true }).fill(`${MONTH}-04`);
      await expect(page).toHaveURL(new RegExp(`from=${MONTH}-04`));
      await expect(rows).toHaveCount(1);
      await expect(rows.first().getByRole('link', { name: tr(lang, 'list.openRecord', { recordId: `${batch.prefix}R3` }) })).toBeVisible();
      await page.getByRole('button', { name: tr(lang, 'list.clearFilters') }).click();
      await expect(rows).toHaveCount(4);

      // Unmatched: a serial no range covers.
      await page.getByTestId('table-search').fill('');
      // Wait for the debounced search to reach the URL before the next change (both rewrite the address).
      await expect(page).not.toHaveURL(/[?&]q=/);
      await page.getByLabel(tr(lang, 'list.matching'), { exact: true }).click();
      await page.getByRole('option', { name: tr(lang, 'list.unmatchedOnly'), exact: true }).click();
      await page.getByLabel(tr(lang, 'fields.machine'), { exact: true }).click();
      await page.getByRole('option', { name: bench, exact: true }).click();
      await expect(page).toHaveURL(/matched=false/);
      await expect(page).toHaveURL(/bench=/);
      await expect(rows).toHaveCount(1);
      await expect(rows.first()).toContainText(batch.unmatched);
      await expect(rows.first()).toContainText(tr(lang, 'list.unmatched'));
      await shot(page, 'machine-data-filtered', lang);
      const href = await page.getByTestId('export-csv').getAttribute('href');
      expect(href).toMatch(/matched=false/);
      expect(href).toMatch(/machineId=/);
      const csv = await page.request.get(href!);
      expect(csv.ok()).toBe(true);
      expect((await csv.text()).trim().split(/\r?\n/)).toHaveLength(2);
    });

    test('a record opens with its fields and its pressure chart', async () => {
      await page.goto(`/machine-data?q=${batch.prefix}&type=shell`);
      await page.getByRole('link', { name: tr(lang, 'list.openRecord', { recordId: `${batch.prefix}R1` }) }).click();
      await expect(page).toHaveURL(/\/machine-data\/[\w-]+$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(tr(lang, 'record.heading', { recordId: `${batch.prefix}R1` }));
      await expect(page.getByTestId('record-bench')).toHaveText(bench);
      const chart = page.getByTestId('pressure-chart');
      await expect(chart).toBeVisible();
      await expect(chart.getByTestId('chart-curve')).toBeVisible();
      // A horizontal line has no height, so Playwright calls it hidden: count it and check it is drawn across.
      await expect(chart.getByTestId('chart-reference')).toHaveCount(1);
      await expect(chart.locator('text', { hasText: tr(lang, 'chart.referenceLabel', { value: '2.4', unit: 'MPa' }) })).toBeVisible();
      await expect(chart.getByTestId('chart-hold')).toBeVisible();
      await expect(chart.locator('text', { hasText: tr(lang, 'chart.timeAxis') })).toBeVisible();
      await expect(chart.locator('text', { hasText: tr(lang, 'chart.pressureAxis') })).toBeVisible();
      // 10,000 samples drawn as at most two points per pixel column of the chart.
      const drawn = Number(await chart.getAttribute('data-drawn'));
      const width = (await chart.boundingBox())!.width;
      expect(drawn).toBeGreaterThan(100);
      expect(drawn).toBeLessThanOrEqual(width * 2);
      await shot(page, 'record', lang);
      // Back goes to the list as it was left.
      await page.getByRole('link', { name: tr(lang, 'record.back') }).click();
      await expect(page).toHaveURL(/type=shell/);
    });

    test("a unit's history lists every test of its serial, newest first, retests marked", async () => {
      await page.goto(`/machine-data?q=${batch.prefix}000001`);
      await page
        .locator('tbody')
        .getByRole('link', { name: `${batch.prefix}000001` })
        .first()
        .click();
      await expect(page).toHaveURL(new RegExp(`/units/${batch.prefix}000001$`));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(tr(lang, 'units.heading', { serial: `${batch.prefix}000001` }));
      await expect(page.getByTestId('unit-product')).toHaveText(batch.product.name);
      const tests = page.getByTestId('unit-test');
      await expect(tests).toHaveCount(3);
      await expect(tests.first()).toContainText(`${batch.prefix}R3`);
      await expect(tests.first()).toContainText(tr(lang, 'units.retest'));
      await expect(tests.last()).toContainText(`${batch.prefix}R1`);
      await expectFits(page);
      await shot(page, 'unit-history', lang);
    });

    test('at 390 px the list is cards and the record, chart and history fit the screen', async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`/machine-data?q=${batch.prefix}`);
      await expect(page.getByTestId('row-card')).toHaveCount(4);
      await shot(page, 'machine-data', lang);
      await page.getByRole('link', { name: tr(lang, 'list.openRecord', { recordId: `${batch.prefix}R1` }) }).click();
      await expect(page.getByTestId('chart-curve')).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await shot(page, 'record', lang);
      await page.goto(`/units/${batch.prefix}000001`);
      await expect(page.getByTestId('unit-test')).toHaveCount(3);
      await expectFits(page);
      await shot(page, 'unit-history', lang);
      await page.goto('/machines');
      await expect(page.getByRole('heading', { level: 1, name: tr(lang, 'benches.title') })).toBeVisible();
      await shot(page, 'benches', lang);
      await page.setViewportSize({ width: 1440, height: 900 });
    });

    test('rotating the key stops the old one; deleting a bench with records disables it', async () => {
      await page.goto(`/machines?q=${encodeURIComponent(bench)}`);
      await page.getByRole('button', { name: tr(lang, 'benches.actionsFor', { name: bench }) }).click();
      await page.getByRole('menuitem', { name: tr(lang, 'benches.rotate') }).click();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: tr(lang, 'benches.rotate') })
        .click();
      const dialog = page.getByRole('dialog', { name: tr(lang, 'key.title', { name: bench }) });
      const fresh = await dialog.getByTestId('machine-key').inputValue();
      expect(fresh).not.toBe(key);
      await dialog.getByRole('button', { name: tr(lang, 'key.done') }).click();
      const one = [{ ...records(batch)[3]!, recordId: `${batch.prefix}R9` }];
      expect((await postBatch(page.request, key, { records: one })).status()).toBe(401);
      expect((await postBatch(page.request, fresh, { records: one })).status()).toBeLessThan(300);

      await page.getByRole('button', { name: tr(lang, 'benches.actionsFor', { name: bench }) }).click();
      await page.getByRole('menuitem', { name: translate(lang, 'app.delete') }).click();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: translate(lang, 'app.delete') })
        .click();
      await expect(page.getByText(tr(lang, 'benches.deletedDisabled', { name: bench, count: 6 }))).toBeVisible();
      const row = page.locator('tbody tr').filter({ hasText: bench });
      await expect(row).toContainText(tr(lang, 'benches.disabled'));
      expect((await postBatch(page.request, fresh, { records: [{ ...one[0]!, recordId: `${batch.prefix}R10` }] })).status()).toBe(401);

      // A bench without records is deleted.
      const spare = `${bench} B`;
      await createBench(page, lang, spare);
      await page.getByRole('button', { name: tr(lang, 'key.done') }).click();
      await page.getByRole('button', { name: tr(lang, 'benches.actionsFor', { name: spare }) }).click();
      await page.getByRole('menuitem', { name: translate(lang, 'app.delete') }).click();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: translate(lang, 'app.delete') })
        .click();
      await expect(page.getByText(tr(lang, 'benches.deleted', { name: spare }))).toBeVisible();
    });
  });
}

test('staff see Machine Data without Benches, filter by a bench from a row, and read a chart in the dark theme', async ({
  browser,
  baseURL,
}) => {
  fs.mkdirSync(OUT, { recursive: true });
  const admin = await adminBrowser(browser, baseURL!, 'en');
  const origin = { origin: new URL(baseURL!).origin };
  const made = await admin.context.request.post('/api/v1/machines', { headers: origin, data: { name: `Bench S ${stamp()}` } });
  expect(made.status(), await made.text()).toBe(201);
  const { machine, key } = ((await made.json()) as { data: { machine: { id: string; name: string }; key: string } }).data;
  const series = `ST${stamp().toUpperCase()}-`;
  const batch = records({ prefix: series, product: { id: '', name: '' }, unmatched: `${series}900001` }).slice(0, 2);
  expect((await postBatch(admin.context.request, key, { records: batch })).status()).toBeLessThan(300);
  await admin.context.close();

  const { context, page } = await staffBrowser(browser, { baseURL: baseURL!, theme: 'dark' });
  await page.goto(`/machine-data?q=${series}`);
  await expect(page.locator('tbody tr')).toHaveCount(2);
  await expect(page.getByRole('link', { name: tr('en', 'benches.title') })).toHaveCount(0);
  // No bench list for staff: a bench is chosen from a row and shown as a removable chip.
  await page
    .getByRole('button', { name: tr('en', 'list.filterByBench', { name: machine.name }) })
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`bench=${machine.id}`));
  await expect(page.getByText(tr('en', 'list.benchChip', { name: machine.name }))).toBeVisible();
  await page.getByRole('link', { name: tr('en', 'list.openRecord', { recordId: `${series}R1` }) }).click();
  await expect(page.getByTestId('chart-curve')).toBeVisible();
  await shot(page, 'record-dark', 'en');
  await page.goto('/machines');
  await expect(page).toHaveURL(/\/not-authorized$/);
  await context.close();
});
