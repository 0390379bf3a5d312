/**
 * The buyer's side of a delivery: a delivery released through the API (its units tested by a bench), the
 * link read from the email the buyer's contact receives, the delivery page on /search with every unit and its
 * certificate, the ZIP, an ended link, and "I have a delivery" answering the same whoever asks. In English and
 * Chinese, at 1440 and 390 px, with screenshots under e2e/artifacts/delivery-link and an axe-core check each.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Browser } from '@playwright/test';
import { createProduct, createRange, stamp } from './catalogue-helpers';
import { waitForEmail } from './helpers';
import { adminBrowser, postBatch } from './machine-data-helpers';
import { screenshotter, translator } from './screen-kit';
import { widthsFor } from './looks';

const OUT = path.join('e2e', 'artifacts', 'delivery-link');
const shot = screenshotter(OUT);
const translate = translator(['search']);
type Language = 'en' | 'zh';
const tr = (lang: Language, key: string, params?: Record<string, unknown>) => translate(lang, `search.delivery.${key}`, params);

async function ok(res: Awaited<ReturnType<APIRequestContext['post']>>) {
  expect(res.status(), await res.text()).toBeLessThan(300);
  return ((await res.json()) as { data: any }).data; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A released delivery of three tested units for a customer whose contact reads `lang`; its link from the email. */
async function releasedDelivery(browser: Browser, baseURL: string, lang: Language) {
  const { context } = await adminBrowser(browser, baseURL, lang);
  const request = context.request;
  const id = stamp().toUpperCase();
  const prefix = `DL${id}-`;
  const product = await createProduct(request, { name: `${lang === 'zh' ? '閘閥' : 'Gate Valve'} DN50 ${id}` });
  await createRange(request, { productId: product.id, startSerial: `${prefix}0001`, endSerial: `${prefix}0010`, totalUnits: 10 });
  const bench = await ok(await request.post('/api/v1/machines', { data: { name: `Bench ${id}` } }));
  const serials = [1, 2, 3].map((i) => `${prefix}000${i}`);
  const base = {
    medium: 'water',
    testPressure: 2.4,
    holdingSeconds: 60,
    leakageValue: null,
    leakageUnit: null,
    result: 'pass',
    operator: 'Lin',
  };
  const sent = await postBatch(request, bench.key, {
    records: serials.flatMap((serial, i) => [
      { ...base, recordId: `${prefix}S${i}`, serial, testType: 'shell', testedAt: '2025-03-03T08:00:00Z' },
      { ...base, recordId: `${prefix}T${i}`, serial, testType: 'seat', testedAt: '2025-03-03T08:10:00Z' },
    ]),
  });
  expect(sent.status(), await sent.text()).toBeLessThan(300);
  const contact = `qa-${id.toLowerCase()}@buyer-${id.toLowerCase()}.example`;
  const customer = await ok(
    await request.post('/api/v1/customers', {
      data: {
        name: `${lang === 'zh' ? '台灣石化' : 'Formosa Petro'} ${id}`,
        code: `L${id}`,
        language: lang,
        contacts: [{ name: 'QA', email: contact, language: lang, receivesCertificates: true }],
      },
    }),
  );
  const po = await ok(
    await request.post('/api/v1/purchase-orders', {
      data: {
        customerId: customer.id,
        number: `PO-${id}`,
        date: '2025-03-01',
        items: [{ line: 10, productId: product.id, quantity: 3, buyerItemCode: 'GV-50' }],
      },
    }),
  );
  const delivery = await ok(
    await request.post('/api/v1/deliveries', { data: { purchaseOrderId: po.id, number: `DN-${id}`, date: '2025-03-05' } }),
  );
  await ok(
    await request.post(`/api/v1/deliveries/${delivery.id}/serials`, {
      data: { units: serials.map((serial, i) => ({ serial, line: 10, tag: `XV-${id}-${i + 1}` })) },
    }),
  );
  expect((await request.post(`/api/v1/deliveries/${delivery.id}/release`)).status()).toBe(202);
  await expect
    .poll(async () => (await (await request.get(`/api/v1/deliveries/${delivery.id}`)).json()).data.status, { timeout: 60_000 })
    .toBe('released');
  const mail = await waitForEmail(contact, 30_000);
  const token = /\/search\?delivery=([A-Za-z0-9_-]{43})/.exec(mail.text)?.[1];
  expect(token, mail.text).toBeTruthy();
  return { context, request, customer, po, delivery, serials, contact, token: token!, id };
}

for (const lang of ['en', 'zh'] as const) {
  test.describe(`the buyer's delivery link in ${lang}`, () => {
    test.describe.configure({ mode: 'serial' });
    let d: Awaited<ReturnType<typeof releasedDelivery>>;

    test.beforeAll(async ({ browser, baseURL }) => {
      fs.mkdirSync(OUT, { recursive: true });
      d = await releasedDelivery(browser, baseURL!, lang);
    });
    test.afterAll(async () => {
      await d.context.close();
    });

    for (const width of widthsFor(lang, 1440)) {
      test(`shows every unit with its certificate and the ZIP, at ${width} px`, async ({ browser, baseURL }) => {
        const visitor = await browser.newContext({ viewport: { width, height: 900 } });
        await visitor.addCookies([{ name: 'test-report-center-language', value: lang, domain: new URL(baseURL!).hostname, path: '/' }]);
        const page = await visitor.newPage();
        await page.goto(`/search?delivery=${d.token}`);
        await expect(page.getByRole('heading', { name: tr(lang, 'title', { number: d.delivery.number }) })).toBeVisible();
        await expect(page.getByTestId('delivery')).toContainText(d.customer.name);
        await expect(page.getByTestId('delivery')).toContainText(d.po.number);
        const units = page.getByTestId('delivery-unit');
        await expect(units).toHaveCount(3);
        for (const [i, serial] of d.serials.entries()) {
          await expect(units.nth(i)).toContainText(serial);
          await expect(units.nth(i)).toContainText(`XV-${d.id}-${i + 1}`);
          await expect(units.nth(i)).toContainText(/TR-\d{4}-\d{6}/);
        }
        await shot(page, 'delivery', lang);
        // Each unit's certificate in the three renderings: the bilingual one is a PDF under the same number.
        const bilingual = units.nth(0).getByTestId('unit-renderings').getByRole('link').nth(2);
        const pdf = await visitor.request.get((await bilingual.getAttribute('href'))!);
        expect([pdf.status(), pdf.headers()['content-type']]).toEqual([200, 'application/pdf']);
        expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
        const zip = await visitor.request.get(`/api/v1/public/deliveries/${d.token}.zip`);
        expect(zip.status()).toBe(200);
        expect(zip.headers()['content-type']).toContain('application/zip');
        expect((await zip.body()).subarray(0, 2).toString()).toBe('PK');
        await visitor.close();
      });
    }

    test('asks for a link with the same answer for the buyer and a stranger; an ended link says so', async ({ browser, baseURL }) => {
      const visitor = await browser.newContext({ viewport: { width: 390, height: 900 } });
      await visitor.addCookies([{ name: 'test-report-center-language', value: lang, domain: new URL(baseURL!).hostname, path: '/' }]);
      const page = await visitor.newPage();
      const answers: string[] = [];
      for (const email of [d.contact, `someone@elsewhere-${d.id.toLowerCase()}.example`]) {
        await page.goto('/search');
        // A tap before the page starts is kept too (e2e/visitor-page.spec.ts); here the form is what is tested.
        await expect(page.locator('html')).toHaveAttribute('data-ready', 'true');
        await page.getByRole('button', { name: tr(lang, 'request.open') }).click();
        await page.getByRole('textbox', { name: tr(lang, 'request.number') }).fill(d.delivery.number);
        await page.getByRole('textbox', { name: tr(lang, 'request.email') }).fill(email);
        await page.getByRole('button', { name: tr(lang, 'request.submit') }).click();
        const answer = page.getByTestId('delivery-request-answer');
        await expect(answer).toBeVisible({ timeout: 60_000 });
        answers.push((await answer.textContent()) ?? '');
      }
      expect(answers[0]).toBe(answers[1]);
      await shot(page, 'delivery-request', lang);

      expect((await d.request.post(`/api/v1/deliveries/${d.delivery.id}/links/revoke`)).status()).toBe(200);
      await page.goto(`/search?delivery=${d.token}`);
      await expect(page.getByRole('heading', { name: tr(lang, 'notFoundTitle') })).toBeVisible();
      await shot(page, 'delivery-ended', lang);
      await visitor.close();
    });
  });
}
