/**
 * Searches, web side: the staff list of public requests, filtered by serial, status, dates and
 * email (kept in the URL), exported as CSV, a request's detail with its delivery history, and a resend;
 * visitors' addresses in full for admins and masked for staff. In English and Chinese, at 1440 and 390 px,
 * with screenshots under e2e/artifacts/searches and an axe-core check. Settings shows the retention field.
 *
 * Data: one real report request made through the public API (with a solved proof-of-work challenge), since
 * public report requests are limited to 10 per IP in 15 minutes and every e2e test shares 127.0.0.1: this
 * spec spends exactly one. Two lookups of unknown serials add not-found requests.
 */
import path from 'node:path';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { solveChallenge } from 'altcha-lib/v1';
import { createProduct, createRange, staffBrowser, stamp } from './catalogue-helpers';
import { ADMIN_STATE, chooseFilter, createStaff, signInByApi, waitForEmail } from './helpers';
import { screenshotter, translator, type Language } from './screen-kit';
import { TIME_SCALE } from './time-scale';
import { widthsFor } from './looks';
import { keepScreenshot } from './shots';

const OUT = path.join('e2e', 'artifacts', 'searches');
const tr = translator(['searches', 'table']);

const shot = screenshotter(OUT);

async function adminPage(browser: Browser, baseURL: string, lang: Language, width: number) {
  const first = await browser.newContext({ storageState: ADMIN_STATE });
  const member = await createStaff(first.request, { role: 'admin' });
  await first.close();
  const context = await browser.newContext({ viewport: { width, height: width < 600 ? 844 : 900 } });
  await context.addCookies([{ name: 'test-report-center-language', value: lang, domain: new URL(baseURL).hostname, path: '/' }]);
  await signInByApi(context.request, member.email, member.password);
  expect((await context.request.patch('/api/v1/auth/me', { data: { language: lang } })).ok()).toBe(true);
  return { context, page: await context.newPage() };
}

/** A proof-of-work challenge from the API, solved as the public page solves it. */
async function solved(request: APIRequestContext): Promise<string> {
  const res = await request.get('/api/v1/public/challenge');
  expect(res.status(), await res.text()).toBe(200);
  const c = ((await res.json()) as { data: { algorithm: string; challenge: string; maxnumber: number; salt: string; signature: string } })
    .data;
  const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
  if (!solution) throw new Error('challenge not solved');
  return Buffer.from(
    JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number: solution.number, salt: c.salt, signature: c.signature }),
  ).toString('base64');
}

const world = { prefix: '', email: '', good: '', unknown: '', groupId: '' };

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext({ storageState: ADMIN_STATE });
  const request = context.request;
  const s = stamp().toUpperCase();
  world.prefix = `SR${s}-`;
  world.good = `${world.prefix}000001`;
  world.unknown = `${world.prefix}900001`;
  world.email = `searches.visitor.${s.toLowerCase()}@example.com`;
  const product = await createProduct(request, { name: `Searches Valve ${s}`, pressureWcb: 2.5 });
  await createRange(request, {
    productId: product.id,
    startSerial: world.good,
    endSerial: `${world.prefix}000100`,
    totalUnits: 100,
    productionDate: '2025-03-01',
  });
  const bench = await request.post('/api/v1/machines', { data: { name: `Searches Bench ${s}` } });
  expect(bench.status(), await bench.text()).toBe(201);
  const key = ((await bench.json()) as { data: { key: string } }).data.key;
  const base = {
    medium: 'water',
    holdingSeconds: 60,
    leakageValue: null,
    leakageUnit: null,
    operator: 'Lin',
    testedAt: '2025-03-03T08:00:00Z',
  };
  const records = [
    { ...base, recordId: `${s}-shell`, serial: world.good, testType: 'shell', testPressure: 3.75, result: 'pass' },
    { ...base, recordId: `${s}-seat`, serial: world.good, testType: 'seat', testPressure: 2.75, result: 'pass' },
  ];
  const res = await request.post('/api/v1/machine-data', { headers: { authorization: `Bearer ${key}` }, data: { records } });
  expect(res.status(), await res.text()).toBe(200);

  const visitor = await browser.newContext();
  const asked = await visitor.request.post('/api/v1/public/report-requests', {
    data: {
      serials: [world.good, world.unknown],
      email: world.email,
      agreeToTerms: true,
      language: 'en',
      challenge: await solved(visitor.request),
    },
  });
  expect(asked.status(), await asked.text()).toBe(200);
  world.groupId = ((await asked.json()) as { data: { requestId: string } }).data.requestId;
  for (const n of [900002, 900003]) await visitor.request.post('/api/v1/public/lookup', { data: { serial: `${world.prefix}${n}` } });
  await visitor.close();
  await waitForEmail(world.email);
  // The email is out: the request turns sent (the worker records it right after the SMTP answer).
  await expect
    .poll(
      async () =>
        ((await (await request.get(`/api/v1/search-requests/${world.groupId}`)).json()) as { data: { status: string } }).data.status,
    )
    .toBe('sent');
  await context.close();
});

for (const lang of ['en', 'zh'] as const) {
  for (const width of widthsFor(lang, 1440)) {
    test(`list, filters in the URL and CSV export (${lang}, ${width})`, async ({ browser, baseURL }) => {
      const { context, page } = await adminPage(browser, baseURL!, lang, width);
      await page.goto(`/searches?q=${world.prefix}`);
      await expect(page.getByRole('heading', { level: 1, name: tr(lang, 'searches.title') })).toBeVisible();
      // The report request (full address for an admin) and the two not-found lookups.
      await expect(page.getByText(world.email).first()).toBeVisible();
      await expect(page.getByText(`${world.prefix}900002`).first()).toBeVisible();
      // The request of a found and an unknown serial is listed as sent, with how many ended each way.
      const counts = [
        tr(lang, 'searches.statusCount', { status: tr(lang, 'searches.statuses.sent'), count: 1 }),
        tr(lang, 'searches.statusCount', { status: tr(lang, 'searches.statuses.not-found'), count: 1 }),
      ].join(lang === 'zh' ? '、' : ', ');
      await expect(page.getByTestId('status-counts').filter({ hasText: counts }).first()).toBeVisible();
      await shot(page, 'list', lang);

      await chooseFilter(page, page.locator('#filter-status'), tr(lang, 'searches.statuses.sent'));
      await expect(page).toHaveURL(/status=sent/);
      await expect(page.getByText(`${world.prefix}900002`)).toHaveCount(0);
      await expect(page.getByText(world.email).first()).toBeVisible();
      await page.locator('#filter-from').fill('2020-01-01');
      await expect(page).toHaveURL(/from=2020-01-01/);
      await page.reload();
      await expect(page.locator('#filter-from')).toHaveValue(lang === 'zh' ? '2020年1月1日' : '1 Jan 2020');
      await expect(page.getByText(world.email).first()).toBeVisible();

      const href = await page.getByTestId('export-csv').getAttribute('href');
      expect(href).toContain('/api/v1/search-requests/export.csv?');
      expect(href).toContain('status=sent');
      expect(href).toContain(`q=${world.prefix}`);
      const csv = await (await page.request.get(href!)).text();
      const lines = csv.trim().split(/\r\n/);
      expect(lines).toHaveLength(2);
      expect(lines[1]).toContain(world.email);
      expect(lines[1]).toContain(`${world.good} ${world.unknown}`);
      await shot(page, 'filtered', lang);

      await page.locator('#filter-email').fill(world.email.slice(0, 16));
      await page.locator('#filter-email').press('Enter');
      await expect(page).toHaveURL(/email=/);
      await expect(page.getByText(world.email).first()).toBeVisible();
      await page.locator('#filter-to').fill('2020-01-02');
      // (with a serial typed, the table says that nothing matches it)
      await expect(page.getByText(tr(lang, 'table.noMatches', { q: world.prefix }))).toBeVisible();
      await context.close();
    });
  }

  test(`detail and resend (${lang})`, async ({ browser, baseURL }) => {
    const width = lang === 'en' ? 1440 : 390;
    const { context, page } = await adminPage(browser, baseURL!, lang, width);
    await page.goto(`/searches?q=${world.good}`);
    await page
      .getByRole('button', { name: new RegExp(tr(lang, 'searches.list.openRequest', { time: '.*' })) })
      .first()
      .click();
    await expect(page).toHaveURL(new RegExp(`request=${world.groupId}`));
    const dialog = page.getByRole('dialog', { name: tr(lang, 'searches.detail.title') });
    await expect(dialog.getByText(tr(lang, 'searches.detail.original'))).toBeVisible();
    const before = await dialog.getByTestId('deliveries').locator('> li').count();
    await shot(page, 'detail', lang);
    await dialog.getByTestId('detail-resend').click();
    const confirm = page.getByRole('dialog', { name: tr(lang, 'searches.detail.confirmTitle') });
    await confirm.getByRole('button', { name: tr(lang, 'searches.list.resend') }).click();
    await expect(page.getByText(tr(lang, 'searches.resent'))).toBeVisible();
    await expect(dialog.getByTestId('deliveries').locator('> li')).toHaveCount(before + 1);
    await expect(dialog.getByText(new RegExp(tr(lang, 'searches.detail.resentBy', { who: '.+@example.com' }))).last()).toBeVisible();
    // The new email goes out and the request follows it back to "sent".
    await expect
      .poll(
        async () =>
          ((await (await page.request.get(`/api/v1/search-requests/${world.groupId}`)).json()) as { data: { status: string } }).data.status,
        { timeout: 20_000 * TIME_SCALE },
      )
      .toBe('sent');
    // The open dialog reads the request again while it is queued.
    await expect(dialog.getByText(tr(lang, 'searches.statuses.queued'), { exact: true })).toHaveCount(0, { timeout: 15_000 * TIME_SCALE });
    await shot(page, 'resent', lang);
    await page.keyboard.press('Escape');
    await expect(page).not.toHaveURL(/request=/);
    await context.close();
  });
}

/** The request's status as the API answers it. */
async function statusOf(page: Page): Promise<string> {
  return ((await (await page.request.get(`/api/v1/search-requests/${world.groupId}`)).json()) as { data: { status: string } }).data.status;
}

test('a resend past the hourly limit of the request says so, in en and zh', async ({ browser, baseURL }) => {
  // Two resends so far (one per language above); a third through the API reaches the limit of 3 an hour.
  const first = await adminPage(browser, baseURL!, 'en', 1440);
  await expect.poll(() => statusOf(first.page), { timeout: 20_000 * TIME_SCALE }).toBe('sent');
  expect((await first.page.request.post(`/api/v1/search-requests/${world.groupId}/resend`)).status()).toBe(200);
  await expect.poll(() => statusOf(first.page), { timeout: 20_000 * TIME_SCALE }).toBe('sent');
  await first.context.close();
  for (const lang of ['en', 'zh'] as const) {
    const width = lang === 'en' ? 1440 : 390;
    const { context, page } = await adminPage(browser, baseURL!, lang, width);
    await page.goto(`/searches?q=${world.good}&request=${world.groupId}`);
    const dialog = page.getByRole('dialog', { name: tr(lang, 'searches.detail.title') });
    await dialog.getByTestId('detail-resend').click();
    const confirm = page.getByRole('dialog', { name: tr(lang, 'searches.detail.confirmTitle') });
    await confirm.getByRole('button', { name: tr(lang, 'searches.list.resend') }).click();
    const [before, after] = tr(lang, 'searches.resendLimitRequest', { max: 3, minutes: '\u0000' }).split('\u0000');
    const escape = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    await expect(page.getByText(new RegExp(`${escape(before!)}\\d+${escape(after!)}`))).toBeVisible();
    await page.waitForTimeout(300);
    await keepScreenshot(page, { path: path.join(OUT, `resend-limit-${lang}-${width}.png`), fullPage: true });
    await context.close();
  }
});

test('staff see the address masked, in the list, the detail and the CSV', async ({ browser, baseURL }) => {
  const { context, page } = await staffBrowser(browser, { baseURL: baseURL!, lang: 'en', viewport: { width: 1440, height: 900 } });
  await page.goto(`/searches?q=${world.prefix}`);
  const masked = `s***@e***.com`;
  await expect(page.getByText(masked).first()).toBeVisible();
  await expect(page.getByText(world.email)).toHaveCount(0);
  await page.locator('#filter-email').fill(world.email.slice(0, 16));
  await page.locator('#filter-email').press('Enter');
  await expect(page.getByText(tr('en', 'table.noMatches', { q: world.prefix }))).toBeVisible();
  await page.locator('#filter-email').fill(world.email);
  await page.locator('#filter-email').press('Enter');
  await expect(page.getByText(masked).first()).toBeVisible();
  await page.goto(`/searches?q=${world.prefix}&request=${world.groupId}`);
  const dialog = page.getByRole('dialog', { name: tr('en', 'searches.detail.title') });
  await expect(dialog.getByText(masked)).toBeVisible();
  await expect(dialog.getByText(tr('en', 'searches.fields.clientIp'))).toHaveCount(0);
  await expect(dialog.getByText(world.email)).toHaveCount(0);
  await page.keyboard.press('Escape');
  const csv = await (await page.request.get(`/api/v1/search-requests/export.csv?q=${world.prefix}`)).text();
  expect(csv).toContain(masked);
  expect(csv).not.toContain(world.email);
  await shot(page, 'staff-masked', 'en');
  await context.close();
});

test('Settings shows the retention of personal data; an admin changes it', async ({ browser, baseURL }) => {
  for (const lang of ['en', 'zh'] as const) {
    const { context, page } = await adminPage(browser, baseURL!, lang, lang === 'en' ? 1440 : 390);
    await page.goto('/settings');
    const field = page.getByLabel(tr(lang, 'searches.retention.days'));
    await expect(field).toHaveValue('365');
    await field.fill('0');
    await page.getByRole('button', { name: tr(lang, 'searches.retention.save') }).click();
    await expect(page.getByText(tr(lang, 'searches.validation.retentionRange'))).toBeVisible();
    await field.fill('400');
    await page.getByRole('button', { name: tr(lang, 'searches.retention.save') }).click();
    await expect(page.getByRole('button', { name: tr(lang, 'searches.retention.save') })).toBeDisabled();
    // The button is disabled while the save is in flight too, so the stored value is polled.
    await expect
      .poll(
        async () =>
          ((await (await page.request.get('/api/v1/settings')).json()) as { data: { searchRetentionDays: number } }).data
            .searchRetentionDays,
      )
      .toBe(400);
    await page.getByRole('heading', { name: tr(lang, 'searches.retention.title') }).scrollIntoViewIfNeeded();
    await keepScreenshot(page, { path: path.join(OUT, `settings-retention-${lang}.png`) });
    expect((await page.request.put('/api/v1/settings/search-retention', { data: { days: 365 } })).ok()).toBe(true);
    await context.close();
  }
});
