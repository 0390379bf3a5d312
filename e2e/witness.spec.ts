/**
 * The witness of an EN 10204 3.2 delivery, web side: a delivery whose order asks for 3.2 shows that no witness
 * is recorded; an admin opens Record witness, saves it empty and reads the field errors in the page's
 * language, fills in the purchaser's inspector, the organisation, the day and the tests witnessed, and the
 * card shows them with who recorded them. English at 1440 px and Chinese at 390 px (E2E_EVERY_LOOK: both at
 * both), with screenshots and an axe check.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type APIResponse } from '@playwright/test';
import { createProduct, stamp } from './catalogue-helpers';
import { adminBrowser } from './machine-data-helpers';
import { widthsFor } from './looks';
import { screenshotter, translator } from './screen-kit';

const OUT = path.join('e2e', 'artifacts', 'witness');
const shot = screenshotter(OUT);
const tr = translator(['orderScreens', 'orders', 'machineScreens', 'validation', 'app']);

async function ok(res: APIResponse) {
  expect(res.status(), await res.text()).toBeLessThan(300);
  return (await res.json()).data;
}

for (const lang of ['en', 'zh'] as const) {
  for (const width of widthsFor(lang, 1440)) {
    test(`the witness of a 3.2 delivery: ${lang} ${width}`, async ({ browser, baseURL }) => {
      fs.mkdirSync(OUT, { recursive: true });
      const { context, page } = await adminBrowser(browser, baseURL!, lang, { width, height: width < 600 ? 844 : 900 });
      const request = context.request;
      const id = stamp().toUpperCase();
      const product = await createProduct(request, { name: `Ball Valve DN50 ${id}` });
      const customer = await ok(await request.post('/api/v1/customers', { data: { name: `Harbour Refining ${id}`, code: `W${id}` } }));
      const po = await ok(
        await request.post('/api/v1/purchase-orders', {
          data: {
            customerId: customer.id,
            number: `PO-${id}`,
            date: '2025-03-01',
            documentType: '3.2',
            items: [{ line: 10, productId: product.id, quantity: 3 }],
          },
        }),
      );
      const delivery = await ok(
        await request.post('/api/v1/deliveries', { data: { purchaseOrderId: po.id, number: `DN-${id}`, date: '2025-03-05' } }),
      );

      await page.goto(`/deliveries/${delivery.id}`);
      const card = page.getByTestId('witness-card');
      await expect(card.getByText(tr(lang, 'orderScreens.witness.missing'))).toBeVisible();
      await card.getByRole('button', { name: tr(lang, 'orderScreens.witness.record') }).click();
      const dialog = page.getByRole('dialog', { name: tr(lang, 'orderScreens.witness.dialogTitle', { number: delivery.number }) });
      await dialog.getByRole('button', { name: tr(lang, 'app.save') }).click();
      await expect(dialog.getByText(tr(lang, 'orders.validation.witnessTests'))).toBeVisible();
      await expect(dialog.getByText(tr(lang, 'validation.required')).first()).toBeVisible();
      await shot(page, 'witness-dialog-errors', lang);

      const name = lang === 'zh' ? '陳志明' : 'Ida Lin';
      await dialog.getByLabel(tr(lang, 'orderScreens.witness.fields.name')).fill(name);
      await dialog.getByLabel(tr(lang, 'orderScreens.witness.fields.organisation')).fill('Harbour Refining QA');
      await dialog.getByLabel(tr(lang, 'machineScreens.testTypes.shell'), { exact: true }).check();
      await dialog.getByLabel(tr(lang, 'machineScreens.testTypes.seat'), { exact: true }).check();
      await dialog.getByRole('button', { name: tr(lang, 'app.save') }).click();
      await expect(dialog).toBeHidden();
      await expect(card.getByText(name)).toBeVisible();
      await expect(card.getByText('Harbour Refining QA')).toBeVisible();
      await expect(card).toContainText(tr(lang, 'machineScreens.testTypes.seat'));
      await expect(card.getByRole('button', { name: tr(lang, 'orderScreens.witness.edit') })).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await shot(page, 'witness-recorded', lang);
      await context.close();
    });
  }
}
