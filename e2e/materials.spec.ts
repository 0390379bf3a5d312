/**
 * Materials and heats, web side: a staff member adds a material to the catalogue (a missing grade is refused
 * under its field, in the page's language), adds a heat of it (a malformed analysis is refused under its
 * field; a file that is not a PDF is refused and the heat kept; a PDF is then stored and opens from the
 * list), names the product's body material, assigns the heat to a range's bodies and sends an exceptions
 * CSV with a serial outside the range (refused, row by row, nothing stored). On a phone the heats' card sort
 * names their own order (newest added first, which no column has). English at 1440 px and Chinese
 * at 390 px (E2E_EVERY_LOOK: both at both), with screenshots and an axe check.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { createProduct, createRange, stamp } from './catalogue-helpers';
import { widthsFor } from './looks';
import { adminBrowser } from './machine-data-helpers';
import { screenshotter, translator, type Language } from './screen-kit';

const OUT = path.join('e2e', 'artifacts', 'materials');
const shot = screenshotter(OUT);
const tr = translator(['materials', 'validation', 'app', 'standards', 'table', 'serials']);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1');

/** Picks `option` in the MUI select labelled `label` (inside `scope`). */
async function choose(page: Page, scope: Locator | Page, label: string, option: string) {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

for (const lang of ['en', 'zh'] as const satisfies readonly Language[]) {
  for (const width of widthsFor(lang, 1440)) {
    test(`materials, heats and a range's heats: ${lang} ${width}`, async ({ browser, baseURL }) => {
      fs.mkdirSync(OUT, { recursive: true });
      const { context, page } = await adminBrowser(browser, baseURL!, lang, { width, height: width < 600 ? 844 : 900 });
      const grade = `WCB-${stamp()}`;
      const material = `ASTM A216 ${grade}`;
      const heatNumber = `H${stamp()}`;

      // The catalogue: a grade is required.
      await page.goto('/materials');
      await page.getByRole('button', { name: tr(lang, 'materials.catalogue.add') }).click();
      const add = page.getByRole('dialog', { name: tr(lang, 'materials.catalogue.add') });
      await add.getByLabel(tr(lang, 'materials.fields.specification')).fill('ASTM A216');
      await add.getByRole('button', { name: tr(lang, 'app.save') }).click();
      await expect(add.getByText(tr(lang, 'validation.required'))).toBeVisible();
      await add.getByLabel(tr(lang, 'materials.fields.grade')).fill(grade);
      await add.getByLabel(tr(lang, 'materials.fields.materialGroup')).fill('1.1');
      await add.getByRole('button', { name: tr(lang, 'app.save') }).click();
      await expect(add).toBeHidden();
      await page.goto(`/materials?q=${encodeURIComponent(grade)}`);
      await expect(page.getByText(material, { exact: true })).toBeVisible();
      await shot(page, 'materials', lang);

      // A heat: the analysis is checked as typed, the file as it arrives.
      await page.goto('/heats');
      await page.getByRole('button', { name: tr(lang, 'materials.heats.add') }).click();
      const heat = page.getByRole('dialog');
      await heat.getByLabel(tr(lang, 'materials.fields.heatNumber')).fill(heatNumber);
      await choose(page, heat, tr(lang, 'materials.fields.material'), material);
      await heat.getByLabel(tr(lang, 'materials.fields.supplier')).fill('Formosa Foundry');
      await heat.getByLabel(tr(lang, 'materials.fields.certificateNumber')).fill(`MC-${heatNumber}`);
      await heat.getByLabel(tr(lang, 'materials.fields.chemistry')).fill('C zero');
      await heat.getByRole('button', { name: tr(lang, 'app.save') }).click();
      await expect(heat.getByText(tr(lang, 'materials.validation.chemistry'))).toBeVisible();
      await heat.getByLabel(tr(lang, 'materials.fields.chemistry')).fill('C 0.21, Mn 0.80, Si 0.45');
      await heat.getByLabel(tr(lang, 'materials.fields.tensileStrength')).fill('510');
      await heat
        .locator('input[type=file]')
        .setInputFiles({ name: 'mill.pdf', mimeType: 'application/pdf', buffer: Buffer.from('not a pdf') });
      await heat.getByRole('button', { name: tr(lang, 'app.save') }).click();
      await expect(heat.getByRole('alert')).toHaveText(tr(lang, 'materials.notPdf'));
      await expect(page.getByRole('heading', { name: tr(lang, 'materials.heats.editTitle', { number: heatNumber }) })).toBeVisible();
      await shot(page, 'heat-dialog', lang);
      await heat.locator('input[type=file]').setInputFiles({ name: `mill-${heatNumber}.pdf`, mimeType: 'application/pdf', buffer: PDF });
      await heat.getByRole('button', { name: tr(lang, 'app.save') }).click();
      await expect(heat).toBeHidden();
      await page.goto(`/heats?q=${encodeURIComponent(heatNumber)}`);
      const open = page.getByRole('link', { name: tr(lang, 'materials.heats.openCertificateOf', { number: heatNumber }) });
      await expect(open).toBeVisible();
      if (width < 600) {
        // Heats are newest added first, an order no column has: the phone's sort names it, and can go back to it.
        const sortBy = page.getByRole('combobox', { name: tr(lang, 'table.sortBy') });
        await expect(sortBy.locator('option:checked')).toHaveText(tr(lang, 'table.defaultOrder'));
        await sortBy.selectOption({ label: tr(lang, 'materials.fields.heatNumber') });
        await expect(page).toHaveURL(/sort=number/);
        await sortBy.selectOption({ label: tr(lang, 'table.defaultOrder') });
        await expect(page).not.toHaveURL(/sort=/);
      }
      const stored = await context.request.get((await open.getAttribute('href'))!);
      expect(stored.headers()['content-type']).toContain('application/pdf');
      expect(Buffer.from(await stored.body()).equals(PDF)).toBe(true);
      await shot(page, 'heats', lang);

      // The product names its body material; the range assigns the heat to its bodies.
      const product = await createProduct(context.request, { name: `Gate Valve ${stamp()}`, pressureWcb: 2 });
      await page.goto(`/edit-product/${product.id}`);
      const parts = page.getByRole('form', { name: tr(lang, 'materials.productParts.title') });
      await choose(page, parts, tr(lang, 'materials.parts.body'), material);
      await parts.getByRole('button', { name: tr(lang, 'materials.productParts.save') }).click();
      await expect(page.getByText(tr(lang, 'materials.productParts.saved'))).toBeVisible();
      await shot(page, 'product-parts', lang);

      const prefix = `MH${stamp()}-`;
      const range = await createRange(context.request, {
        productId: product.id,
        startSerial: `${prefix}0001`,
        endSerial: `${prefix}0020`,
        totalUnits: 20,
      });
      await page.goto(`/edit-serial-number/${range.id}`);
      const heats = page.getByTestId('range-heats');
      await choose(page, heats, tr(lang, 'materials.parts.body'), heatNumber);
      await heats.getByRole('button', { name: tr(lang, 'materials.rangeHeats.save') }).click();
      await expect(page.getByText(tr(lang, 'materials.rangeHeats.saved'))).toBeVisible();
      const saved = await context.request.get(`/api/v1/serial-ranges/${range.id}/heats`);
      expect((await saved.json()).data.heats).toEqual([expect.objectContaining({ part: 'body', number: heatNumber })]);
      // The body's heat rates the range by its material: the range's form shows it without a reload.
      await expect(page.getByRole('combobox', { name: tr(lang, 'serials.fields.bodyMaterial') })).toHaveText(
        tr(lang, 'standards.materials.wcb'),
      );

      const csv = `serial,part,heat\n${prefix}0002,body,${heatNumber}\nZZ-OUTSIDE-1,body,${heatNumber}\n`;
      await heats.locator('input[type=file]').setInputFiles({ name: 'unit-heats.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      const refused = page.getByTestId('unit-heats-refused');
      await expect(refused).toContainText(tr(lang, 'materials.serialNotInRange', { serial: 'ZZ-OUTSIDE-1' }));
      await expect(page.getByTestId('range-heat-exceptions')).toHaveText(tr(lang, 'materials.rangeHeats.exceptions_other', { n: '0' }));
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await shot(page, 'range-heats', lang);
      await context.close();
    });
  }
}
