/**
 * Customers, purchase orders and deliveries, web side: an admin adds a customer with a contact, a purchase
 * order with one item of a product that has a serial range, a delivery; types a range of serials into the
 * delivery and sees them listed; a serial outside every range and a line that is no range are refused with
 * their reasons. Releasing it is refused while the gate holds its units (they are listed with why); once
 * a bench's tests pass it is released in the background (the page reads it again until it is), lists each
 * unit's certificate, emails the buyer's link, sends it again and revokes it, and a corrected tag gives the
 * unit a new certificate (a tag used by another unit is named on the field). In English and Chinese, at 1440
 * and 390 px, with screenshots under e2e/artifacts/orders and an axe-core check of each.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { createProduct, createRange, pickProduct, stamp } from './catalogue-helpers';
import { waitForEmail } from './helpers';
import { adminBrowser } from './machine-data-helpers';
import { screenshotter, translator } from './screen-kit';

const OUT = path.join('e2e', 'artifacts', 'orders');
const shot = screenshotter(OUT);
const translate = translator(['orderScreens', 'app', 'nav']);
type Language = 'en' | 'zh';
const tr = (lang: Language, key: string, params?: Record<string, unknown>) => translate(lang, `orderScreens.${key}`, params);

/** Types `query` into the searchable select labelled `label` (the server searches it) and picks `option`. */
async function pick(page: Page, label: string, query: string, option: string): Promise<void> {
  const box = page.getByRole('combobox', { name: label });
  await box.click();
  await box.fill(query);
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect(box).toHaveValue(option);
}

for (const lang of ['en', 'zh'] as const) {
  test.describe(`customers, orders and deliveries in ${lang}`, () => {
    test.describe.configure({ mode: 'serial' });
    let context: BrowserContext;
    let page: Page;
    let prefix = '';
    let product = { id: '', name: '' };
    const id = stamp().toUpperCase();
    const customer = { name: `${lang === 'zh' ? '台灣石化' : 'Formosa Petro'} ${id}`, code: `C${id}` };
    const poNumber = `PO-${id}`;
    const deliveryNumber = `DN-${id}`;
    const contactEmail = `lin.mei.${id.toLowerCase()}@formosa.example`;

    test.beforeAll(async ({ browser, baseURL }) => {
      fs.mkdirSync(OUT, { recursive: true });
      ({ context, page } = await adminBrowser(browser, baseURL!, lang));
      prefix = `OR${id}-`;
      product = await createProduct(context.request, { name: `${lang === 'zh' ? '球閥' : 'Ball Valve'} DN80 ${id}` });
      await createRange(context.request, {
        productId: product.id,
        startSerial: `${prefix}0001`,
        endSerial: `${prefix}0050`,
        totalUnits: 50,
      });
    });

    test.afterAll(async () => {
      await context.close();
    });

    test('an admin adds a customer with a contact; a bad contact address is named on its field', async () => {
      await page.goto('/dashboard');
      await page
        .getByRole('link', { name: translate(lang, 'nav.customers') })
        .first()
        .click();
      await expect(page.getByRole('heading', { level: 1, name: tr(lang, 'customers.title') })).toBeVisible();
      await page.getByRole('link', { name: tr(lang, 'customers.add') }).click();
      await expect(page.getByRole('heading', { level: 1, name: tr(lang, 'customers.add') })).toBeVisible();
      await page.getByRole('textbox', { name: tr(lang, 'customers.fields.name') }).fill(customer.name);
      // exact: "Postcode" holds "Code"
      await page.getByRole('textbox', { name: tr(lang, 'customers.fields.code'), exact: true }).fill(customer.code.toLowerCase());
      await page.getByRole('textbox', { name: tr(lang, 'customers.fields.postcode') }).fill('806');
      await page.getByRole('textbox', { name: tr(lang, 'customers.fields.city') }).fill(lang === 'en' ? 'Kaohsiung' : '高雄');
      await page.getByRole('textbox', { name: tr(lang, 'customers.fields.country') }).fill('tw');
      const domains = page.getByRole('combobox', { name: tr(lang, 'customers.fields.emailDomains') });
      await domains.fill('formosa.example');
      await domains.press('Enter');
      await page.getByRole('button', { name: tr(lang, 'customers.contacts.add') }).click();
      const row = page.getByTestId('contact-row');
      await row.getByRole('textbox', { name: tr(lang, 'customers.contacts.name') }).fill('Lin Mei');
      const email = row.getByRole('textbox', { name: tr(lang, 'customers.contacts.email') });
      await email.fill('not an address');
      await page.getByRole('button', { name: tr(lang, 'customers.addButton') }).click();
      await expect(email).toHaveAttribute('aria-invalid', 'true');
      await shot(page, 'customer-form-error', lang);
      await email.fill(contactEmail);
      await page.getByRole('button', { name: tr(lang, 'customers.addButton') }).click();
      await expect(page).toHaveURL(/\/customers$/);
      await page
        .getByRole('searchbox')
        .or(page.getByPlaceholder(tr(lang, 'customers.list.searchPlaceholder')))
        .first()
        .fill(id);
      const listed = page.locator('tbody tr').filter({ hasText: customer.name });
      await expect(listed).toContainText(customer.code);
      await expect(listed).toContainText('TW');
      await expect(page).toHaveURL(/q=/);
      await shot(page, 'customers', lang);
    });

    test('a purchase order for the customer with one item of the product', async () => {
      await page.goto('/purchase-orders');
      await page.getByRole('link', { name: tr(lang, 'purchaseOrders.add') }).click();
      // The list stays on screen until the form's code has loaded: wait for the form's own heading.
      await expect(page.getByRole('heading', { level: 1, name: tr(lang, 'purchaseOrders.add') })).toBeVisible();
      await pick(page, tr(lang, 'purchaseOrders.fields.customer'), customer.code, `${customer.name} (${customer.code})`);
      await page.getByRole('textbox', { name: tr(lang, 'purchaseOrders.fields.number') }).fill(poNumber);
      const item = page.getByTestId('item-row');
      await pickProduct(page, tr(lang, 'purchaseOrders.items.product'), product.name);
      await item.getByRole('textbox', { name: tr(lang, 'purchaseOrders.items.quantity') }).fill('10');
      await item.getByRole('textbox', { name: tr(lang, 'purchaseOrders.items.buyerItemCode') }).fill('BV-80-A');
      await shot(page, 'purchase-order-form', lang);
      await page.getByRole('button', { name: tr(lang, 'purchaseOrders.addButton') }).click();
      await expect(page).toHaveURL(/\/purchase-orders$/);
      const listed = page.locator('tbody tr').filter({ hasText: poNumber });
      await expect(listed).toContainText(customer.code);
      await expect(listed).toContainText('0 / 10'.replace(' / ', lang === 'zh' ? '／' : ' / '));
      await shot(page, 'purchase-orders', lang);
    });

    test('a delivery gets a typed range of serials; a bad line and an unknown serial are refused', async () => {
      await page.goto('/deliveries');
      await page.getByRole('button', { name: tr(lang, 'deliveries.add') }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toBeVisible();
      await pick(page, tr(lang, 'deliveries.fields.purchaseOrder'), poNumber, `${poNumber} · ${customer.name}`);
      await dialog.getByRole('textbox', { name: tr(lang, 'deliveries.fields.number') }).fill(deliveryNumber);
      await dialog.getByRole('button', { name: tr(lang, 'deliveries.addButton') }).click();
      await expect(page).toHaveURL(/\/deliveries\/[0-9a-f-]{36}$/);
      await expect(page.getByTestId('delivery-number')).toHaveText(deliveryNumber);
      await expect(page.getByTestId('delivery-status')).toHaveText(tr(lang, 'deliveries.statuses.open'));

      const serials = page.getByRole('textbox', { name: tr(lang, 'entry.serials') });
      const add = page.getByRole('button', { name: tr(lang, 'entry.add'), exact: true });
      // A line that is not one series: named before anything is sent.
      await serials.fill(`${prefix}0001…XX-0002`);
      await add.click();
      await expect(page.getByTestId('entry-bad-lines')).toContainText(tr(lang, 'entry.badLines', { lines: '1' }));
      // A range, one serial with its tag.
      await serials.fill(`${prefix}0001…${prefix}0003\n${prefix}0004,FV-101`);
      await add.click();
      const units = page.getByTestId('delivery-units');
      for (const n of ['0001', '0002', '0003', '0004']) await expect(units).toContainText(`${prefix}${n}`);
      await expect(units).toContainText('FV-101');
      await expect(units).toContainText(product.name);
      await expect(serials).toHaveValue('');
      // A serial of no range: the server refuses the batch and names it.
      await serials.fill(`${prefix}0005\nZZ${id}-9999`);
      await add.click();
      await expect(page.getByTestId('entry-row-errors')).toContainText(`ZZ${id}-9999`);
      await expect(units.locator('tbody tr')).toHaveCount(4);
      await shot(page, 'delivery', lang);

      await page.goto('/deliveries?status=open');
      const listed = page.locator('tbody tr').filter({ hasText: deliveryNumber });
      await expect(listed).toContainText(poNumber);
      await expect(listed).toContainText('4');
      await shot(page, 'deliveries', lang);
    });

    test('at 390 px the lists are cards and the delivery page fits the screen', async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`/customers?q=${id}`);
      await expect(page.getByTestId('row-card').filter({ hasText: customer.name })).toBeVisible();
      await shot(page, 'customers', lang);
      await page.goto(`/purchase-orders?q=${poNumber}`);
      await expect(page.getByTestId('row-card').filter({ hasText: poNumber })).toBeVisible();
      await shot(page, 'purchase-orders', lang);
      await page.goto(`/deliveries?q=${deliveryNumber}`);
      const card = page.getByTestId('row-card').filter({ hasText: deliveryNumber });
      await expect(card).toBeVisible();
      await card.getByRole('link', { name: deliveryNumber }).click();
      await expect(page.getByTestId('delivery-units')).toContainText(`${prefix}0001`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await shot(page, 'delivery', lang);
      await page.goto('/add-customer');
      await page.getByRole('button', { name: tr(lang, 'customers.contacts.add') }).click();
      await shot(page, 'customer-form', lang);
    });

    test("a release is refused while units are held, then certificates, the buyer's links and a corrected tag", async () => {
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(`/deliveries?q=${deliveryNumber}`);
      await page.locator('tbody tr').filter({ hasText: deliveryNumber }).getByRole('link', { name: deliveryNumber }).click();
      const release = page.getByRole('button', { name: tr(lang, 'release.button'), exact: true });
      await release.click();
      const confirm = page.getByRole('dialog', { name: tr(lang, 'release.title', { number: deliveryNumber }) });
      const summary = confirm.getByTestId('release-summary');
      await expect(summary).toContainText(customer.name);
      await expect(summary).toContainText('4');
      await expect(summary).toContainText(translate(lang, 'app.languages.en'));
      await shot(page, 'release-confirm', lang);
      await confirm.getByRole('button', { name: tr(lang, 'release.confirm'), exact: true }).click();
      // No test data yet: the release is refused and every unit is listed with why.
      await expect(page.getByTestId('release-refused')).toHaveText(tr(lang, 'release.refused'));
      const held = page.getByTestId('held-units-table');
      for (const n of ['0001', '0002', '0003', '0004']) await expect(held).toContainText(`${prefix}${n}`);
      await expect(held).toContainText('FV-101');
      await expect(held.getByText(tr(lang, 'gate.noData'))).toHaveCount(4);
      await expect(page.getByTestId('delivery-status')).toHaveText(tr(lang, 'deliveries.statuses.open'));
      await shot(page, 'release-refused', lang);

      // A bench's passing tests: the gate passes, and the release runs to its end while the page reads it again.
      const bench = await context.request.post('/api/v1/machines', { data: { name: `Orders Bench ${id} ${lang}` } });
      expect(bench.status(), await bench.text()).toBe(201);
      const key = ((await bench.json()) as { data: { key: string } }).data.key;
      const testedAt = new Date(Date.now() - 600_000).toISOString();
      const records = ['0001', '0002', '0003', '0004'].map((n) => ({
        recordId: `OR-${id}-${n}`,
        serial: `${prefix}${n}`,
        testType: 'shell',
        medium: 'water',
        testPressure: 2.4,
        holdingSeconds: 60,
        leakageValue: null,
        leakageUnit: null,
        result: 'pass',
        testedAt,
        operator: 'Lin',
      }));
      const sent = await context.request.post('/api/v1/machine-data', { headers: { authorization: `Bearer ${key}` }, data: { records } });
      expect(sent.status(), await sent.text()).toBe(200);
      await page.reload();
      await expect(page.getByTestId('delivery-units')).toBeVisible();
      await expect(page.getByTestId('held-units')).toHaveCount(0);
      await release.click();
      await confirm.getByRole('button', { name: tr(lang, 'release.confirm'), exact: true }).click();
      await expect(page.getByTestId('delivery-status')).toHaveText(tr(lang, 'deliveries.statuses.released'), { timeout: 60_000 });
      await expect(release).toHaveCount(0);
      const status = page.getByTestId('release-status');
      await expect(status).toContainText(tr(lang, 'release.releasedTitle'));
      await expect(status).toContainText(tr(lang, 'release.progress', { issued: '4', count: '4' }));
      const units = page.getByTestId('delivery-units');
      await expect(units.getByRole('link')).toHaveCount(4);
      const firstRow = units.locator('tbody tr').filter({ hasText: `${prefix}0001` });
      const before = (await firstRow.getByRole('link').textContent()) ?? '';
      expect(before).not.toBe('');
      await expect(firstRow.getByRole('link')).toHaveAttribute('href', /^\/api\/v1\/public\/reports\/.+\.pdf$/);
      // The release's link went to the customer's certificate contact.
      const links = page.getByTestId('delivery-links-table');
      await expect(links.locator('tbody tr')).toHaveCount(1);
      await expect(links).toContainText(tr(lang, 'links.sources.release'));
      await expect(links).toContainText(contactEmail);
      expect((await waitForEmail(contactEmail)).subject).toContain(deliveryNumber);
      await shot(page, 'released', lang);

      await page.getByRole('button', { name: tr(lang, 'links.resend') }).click();
      await expect(links.locator('tbody tr')).toHaveCount(2);
      await expect(links).toContainText(tr(lang, 'links.sources.staff'));
      await page.getByRole('button', { name: tr(lang, 'links.revoke') }).click();
      const revoke = page.getByRole('dialog', { name: tr(lang, 'links.revokeTitle') });
      await revoke.getByRole('button', { name: tr(lang, 'links.revokeButton') }).click();
      await expect(revoke).toHaveCount(0);
      await expect(links.getByText(tr(lang, 'links.active'))).toHaveCount(0);
      await expect(page.getByRole('button', { name: tr(lang, 'links.revoke') })).toBeDisabled();

      // A corrected tag issues the unit a new certificate; a tag another unit has is named on the field.
      await page.getByRole('button', { name: tr(lang, 'units.editTag', { serial: `${prefix}0002` }) }).click();
      let tagDialog = page.getByRole('dialog', { name: tr(lang, 'tag.title', { serial: `${prefix}0002` }) });
      const tagField = tagDialog.getByRole('textbox', { name: tr(lang, 'units.tag') });
      await tagField.fill('FV-101');
      await tagDialog.getByRole('button', { name: tr(lang, 'tag.save') }).click();
      await expect(tagField).toHaveAttribute('aria-invalid', 'true');
      await expect(tagDialog).toContainText(`${prefix}0004`);
      await shot(page, 'tag-taken', lang);
      await tagDialog.getByRole('button', { name: translate(lang, 'app.close') }).click();
      await page.getByRole('button', { name: tr(lang, 'units.editTag', { serial: `${prefix}0001` }) }).click();
      tagDialog = page.getByRole('dialog', { name: tr(lang, 'tag.title', { serial: `${prefix}0001` }) });
      await tagDialog.getByRole('textbox', { name: tr(lang, 'units.tag') }).fill('FV-101A');
      await tagDialog.getByRole('button', { name: tr(lang, 'tag.save') }).click();
      await expect(tagDialog).toHaveCount(0);
      await expect(firstRow).toContainText('FV-101A');
      await expect(firstRow.getByRole('link')).not.toHaveText(before);

      await page.setViewportSize({ width: 390, height: 844 });
      await page.reload();
      await expect(units.getByTestId('row-card')).toHaveCount(4);
      await expect(links.getByTestId('row-card')).toHaveCount(2);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await shot(page, 'released', lang);
    });
  });
}
