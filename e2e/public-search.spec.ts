/**
 * The public Test Report Center, as a visitor uses it on a 390 px phone and a 1440 px screen, in
 * English and Chinese: lookup, not found, the agreement and email checks, a request with the PDF preview
 * paged and the email received, several serials at once, and verification by link, by typed code and by a
 * dropped file (and a changed file, which is not known). Test data: a product, a range, a bench and its
 * records made through the API as the bench would post them. Screenshots under e2e/artifacts/public-search.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { createProduct, createRange, stamp } from './catalogue-helpers';
import { ADMIN_STATE, waitForEmail } from './helpers';
import { noLeakageSeen } from './machine-data-helpers';
import { expectAxeClean, translator, type Language } from './screen-kit';
import { TIME_SCALE } from './time-scale';
import { keepScreenshot } from './shots';

const OUT = path.join('e2e', 'artifacts', 'public-search');
const tr = translator(['search', 'validation', 'publicApi', 'pages', 'visitor']);

interface World {
  prefix: string;
  product: string;
  /** passing records: a report is issued */
  good: string[];
  /** a failed latest seat test: held */
  held: string;
  unknown: string;
}

/** A pressure curve: ramp in 20 s, hold, vent. */
function curve(n: number, p: number, hold: number) {
  const end = 30 + hold;
  return Array.from({ length: n }, (_, i) => {
    const t = Math.round((i / (n - 1)) * end * 1000) / 1000;
    const v = t < 20 ? (p * t) / 20 : t < 20 + hold ? p - (t - 20) * 0.0005 : Math.max(0, p * (1 - (t - 20 - hold) / 10));
    return { t, p: Math.round(v * 1000) / 1000 };
  });
}

async function makeWorld(request: APIRequestContext): Promise<World> {
  const s = stamp().toUpperCase();
  const prefix = `PS${s}-`;
  // Tested to API 598 as a check valve (shell and seat required), WCB rated 2.5 MPa: 1.5 × 2.5 and 1.1 × 2.5 rounded
  // up to the next bar (ASME B16.34), shell ≥ 3.8 and seat ≥ 2.8 MPa; the seat's leakage at most 6 cm³/min (DN 50).
  const product = await createProduct(request, {
    name: `Check Valve DN50 ${s}`,
    pressureWcb: 2.5,
    testStandard: 'api-598',
    valveType: 'check',
    nominalSize: 50,
    seatType: 'metal',
    pressureClass: 'CL300',
  });
  await createRange(request, {
    productId: product.id,
    startSerial: `${prefix}000001`,
    endSerial: `${prefix}000100`,
    totalUnits: 100,
    productionDate: '2025-03-01',
    bodyMaterial: 'wcb',
  });
  const bench = await request.post('/api/v1/machines', { data: { name: `Public Bench ${s}` } });
  expect(bench.status(), await bench.text()).toBe(201);
  const key = ((await bench.json()) as { data: { key: string } }).data.key;
  const base = { medium: 'water', holdingSeconds: 60, leakageValue: null, leakageUnit: null, operator: 'Lin' };
  const records = [1, 2, 3].flatMap((n) => {
    const serial = `${prefix}${String(n).padStart(6, '0')}`;
    return [
      {
        ...base,
        recordId: `${s}-${n}-shell`,
        serial,
        testType: 'shell',
        testPressure: 3.8,
        result: 'pass',
        testedAt: '2025-03-03T08:00:00Z',
        samples: curve(300, 3.8, 60),
      },
      {
        ...base,
        recordId: `${s}-${n}-seat`,
        serial,
        testType: 'seat',
        testPressure: 2.8,
        result: n === 3 ? 'fail' : 'pass',
        // What the bench saw: none on a pass, 9 mL/min where it failed the seat.
        ...(n === 3 ? { leakageValue: 9, leakageUnit: 'mL/min' } : noLeakageSeen('mL/min')),
        testedAt: '2025-03-03T08:05:00Z',
        samples: curve(300, 2.8, 60),
      },
    ];
  });
  const res = await request.post('/api/v1/machine-data', { headers: { authorization: `Bearer ${key}` }, data: { records } });
  expect(res.status(), await res.text()).toBe(200);
  return { prefix, product: product.name, good: [`${prefix}000001`, `${prefix}000002`], held: `${prefix}000003`, unknown: `ZZ${s}-000001` };
}

async function visitor(browser: Browser, baseURL: string, lang: Language, width: number) {
  const context = await browser.newContext({ viewport: { width, height: width < 600 ? 844 : 900 } });
  await context.addCookies([{ name: 'test-report-center-language', value: lang, domain: new URL(baseURL).hostname, path: '/' }]);
  return { context, page: await context.newPage() };
}

async function check(page: Page, name: string, lang: Language) {
  const width = page.viewportSize()?.width ?? 1440;
  await page.waitForTimeout(300);
  await keepScreenshot(page, { path: path.join(OUT, `${name}-${lang}-${width}.png`), fullPage: true });
  await expectAxeClean(page, `${name} ${lang} ${width}`);
}

/** The text of a PDF (poppler's pdftotext), whitespace collapsed. */
function pdfText(bytes: Buffer): string {
  const file = path.join(os.tmpdir(), `trc-e2e-${stamp()}.pdf`);
  fs.writeFileSync(file, bytes);
  try {
    return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
  } finally {
    fs.rmSync(file, { force: true });
  }
}

async function lookup(page: Page, text: string) {
  await page.locator('#serial-input').fill(text);
  await page.locator('#serial-input').press('Enter');
}

let world: World;
/** A report issued by the first request of the run, verified later (the per-IP request limit is 10 in 15 minutes). */
let issued: { href: string; serial: string } | null = null;

test.beforeAll(async ({ browser }) => {
  fs.mkdirSync(OUT, { recursive: true });
  const admin = await browser.newContext({ storageState: ADMIN_STATE });
  world = await makeWorld(admin.request);
  await admin.close();
});

for (const lang of ['en', 'zh'] as const) {
  for (const width of [390, 1440]) {
    test(`lookup, checks, request and preview: ${lang} ${width}`, async ({ browser, baseURL }) => {
      const { context, page } = await visitor(browser, baseURL!, lang, width);
      await page.goto('/search');
      await expect(page.getByRole('heading', { level: 1, name: tr(lang, 'pages.search') })).toBeVisible();
      await check(page, 'start', lang);

      // Not found: typed in lower case with spaces, normalised, and the answer takes the focus.
      await lookup(page, world.unknown.toLowerCase());
      await expect(page.getByTestId('not-found')).toBeVisible();
      await expect(page.getByRole('heading', { level: 3, name: tr(lang, 'search.lookup.notFound') })).toBeFocused();
      await expect(page.getByTestId('step-request')).toHaveCount(0);

      await lookup(page, ` ${world.good[0]!.toLowerCase()} `);
      await expect(page.getByRole('heading', { level: 3, name: world.product })).toBeFocused();
      await expect(page.getByTestId('lookup-results')).toContainText(world.good[0]!);
      await expect(page.getByTestId('lookup-results')).toContainText('2.5 MPa');
      await check(page, 'found', lang);

      // Step 2: nothing is sent without the agreement and a valid address.
      const submit = page.getByRole('button', { name: tr(lang, 'search.request.submit') });
      await expect(page.getByTestId('terms-version')).toHaveText(/\d/);
      await submit.click();
      await expect(page.getByText(tr(lang, 'validation.mustAgree'))).toBeVisible();
      await expect(page.getByText(tr(lang, 'validation.required'))).toBeVisible();
      await page.getByLabel(tr(lang, 'search.request.agree')).check();
      await page.getByLabel(tr(lang, 'search.request.email')).fill('not-an-email');
      await submit.click();
      await expect(page.getByText(tr(lang, 'validation.email'))).toBeVisible();
      await check(page, 'checks', lang);

      const email = `visitor.${stamp()}@example.com`;
      await page.getByLabel(tr(lang, 'search.request.email')).fill(email);
      const reportLanguage = lang === 'en' ? 'zh' : 'en';
      await page.getByRole('radio', { name: reportLanguage === 'zh' ? '繁體中文' : 'English' }).check();
      await submit.click();
      await expect(page.getByTestId('outcome-message')).toContainText(tr(lang, 'search.outcome.success'), { timeout: 30_000 * TIME_SCALE });
      await expect(page.getByTestId('outcome-message')).toBeFocused();
      const preview = page.getByTestId('pdf-preview');
      await expect(preview.locator('canvas')).toBeVisible();
      const indicator = page.getByTestId('page-indicator');
      await expect(indicator).toHaveText(new RegExp(tr(lang, 'search.preview.pageOf', { page: 1, pages: '(\\d+)' })));
      const pages = Number((await indicator.textContent())!.match(/\d+/g)!.at(1));
      if (pages > 1) {
        await page.getByRole('button', { name: tr(lang, 'search.preview.next') }).click();
        await expect(indicator).toHaveText(tr(lang, 'search.preview.pageOf', { page: 2, pages }));
        await page.getByRole('button', { name: tr(lang, 'search.preview.previous') }).click();
        await expect(indicator).toHaveText(tr(lang, 'search.preview.pageOf', { page: 1, pages }));
      }
      if (width < 600) {
        // On a phone the page spans the screen and can be zoomed: wider than the screen, the box then scrolls.
        const viewport = page.getByTestId('preview-viewport');
        expect((await viewport.boundingBox())!.width).toBeGreaterThanOrEqual(width - 1);
        await page.getByRole('button', { name: tr(lang, 'visitor.preview.zoomIn') }).click();
        await expect(page.getByTestId('zoom-level')).toHaveText('150%');
        await expect.poll(async () => (await preview.locator('canvas').boundingBox())!.width).toBeGreaterThan(width * 1.4);
        await keepScreenshot(page.getByTestId('preview-viewport'), { path: path.join(OUT, `preview-zoomed-${lang}-${width}.png`) });
        await page.getByRole('button', { name: tr(lang, 'visitor.preview.zoomOut') }).click();
        await expect(page.getByTestId('zoom-level')).toHaveText('100%');
      }
      const download = page.getByRole('link', { name: tr(lang, 'search.preview.download') });
      await expect(download).toHaveAttribute('href', /^\/api\/v1\/public\/reports\/[A-Za-z0-9_-]{22}\.pdf$/);
      issued ??= { href: (await download.getAttribute('href'))!, serial: world.good[0]! };
      await page.waitForTimeout(1000);
      await check(page, 'preview', lang);

      const mail = await waitForEmail(email, 60_000);
      expect(mail.text + mail.subject).toContain(world.good[0]!);
      await context.close();
    });
  }

  test(`several serials at once: ${lang}`, async ({ browser, baseURL }) => {
    const { context, page } = await visitor(browser, baseURL!, lang, lang === 'en' ? 390 : 1440);
    await page.goto('/search');
    await lookup(page, `${world.good[0]}\n${world.good[1]!.toLowerCase()}, ${world.unknown}\n${world.held}`);
    await expect(page.getByRole('heading', { level: 3, name: tr(lang, 'search.lookup.summary', { found: 3, total: 4 }) })).toBeFocused();
    const rows = page.getByTestId('lookup-row');
    await expect(rows).toHaveCount(4);
    await expect(rows.filter({ hasText: world.unknown })).toContainText(tr(lang, 'search.lookup.notFound'));
    await expect(rows.filter({ hasText: world.good[1]! })).toContainText(world.product);
    await check(page, 'several', lang);

    // One request carries them all; sent once (in English) to stay within the per-IP request limit.
    if (lang === 'en') {
      const email = `several.${stamp()}@example.com`;
      await page.getByLabel(tr(lang, 'search.request.agree')).check();
      await page.getByLabel(tr(lang, 'search.request.email')).fill(email);
      await page.getByRole('button', { name: tr(lang, 'search.request.submit') }).click();
      const outcome = page.getByTestId('outcome-row');
      await expect(outcome).toHaveCount(3, { timeout: 30_000 * TIME_SCALE });
      await expect(outcome.filter({ hasText: world.good[0]! })).toContainText(tr(lang, 'search.outcome.issued'));
      await expect(outcome.filter({ hasText: world.good[1]! })).toContainText(tr(lang, 'search.outcome.issued'));
      await expect(outcome.filter({ hasText: world.held })).toContainText(tr(lang, 'search.outcome.held'));
      await expect(page.getByTestId('pdf-preview').locator('canvas')).toBeVisible();
      await check(page, 'several-sent', lang);
      const mail = await waitForEmail(email, 60_000);
      expect(mail.text + mail.subject).toContain(world.good[1]!);

      // The previewed report states the requirement beside each measurement and the standard it was judged by.
      const href = (await page.getByRole('link', { name: tr(lang, 'search.preview.download') }).getAttribute('href'))!;
      const text = pdfText(await (await context.request.get(href)).body());
      expect(text).toContain('3.8 MPa (required ≥ 3.8 MPa)');
      expect(text).toContain('2.8 MPa (required ≥ 2.8 MPa)');
      expect(text).toContain('API 598');

      // Staff see the held unit on the quality screen as still held, with the test that holds it.
      const staff = await browser.newContext({ storageState: ADMIN_STATE, viewport: { width: 1440, height: 900 } });
      const quality = await staff.newPage();
      const today = new Date().toISOString().slice(0, 10);
      await quality.goto(`/machine-data/quality?from=${today}&to=${today}`);
      const row = quality.getByTestId('held-requests').locator('li').filter({ hasText: world.held });
      await expect(row.getByTestId('held-reason-stillHeld')).toBeVisible();
      await row.scrollIntoViewIfNeeded();
      await keepScreenshot(quality, { path: path.join(OUT, 'held-panel-1440.png'), fullPage: false });
      await staff.close();
    }

    // Too many: 21 distinct serials are refused before anything is sent.
    await lookup(page, Array.from({ length: 21 }, (_, i) => `${world.prefix}${String(i + 1).padStart(6, '0')}`).join('\n'));
    await expect(page.getByText(tr(lang, 'search.lookup.tooMany', { max: 20 }))).toBeVisible();
    await context.close();
  });

  test(`verification by link, code and dropped file: ${lang}`, async ({ browser, baseURL }) => {
    const { context, page } = await visitor(browser, baseURL!, lang, lang === 'en' ? 1440 : 390);
    // The report the first request issued (that test runs first in this serial file).
    expect(issued, 'a report was issued by an earlier test').not.toBeNull();
    const href = issued!.href;
    const id = href.match(/reports\/([^/.]+)\.pdf$/)![1]!;
    const facts = (
      (await (await context.request.get(`/api/v1/public/reports/${id}`)).json()) as {
        data: { number: string; code: string; sha256: string };
      }
    ).data;
    const pdf = await (await context.request.get(href)).body();
    // Required beside measured, in the report's own language.
    const language = ((await (await context.request.get(`/api/v1/public/reports/${id}`)).json()) as { data: { language: string } }).data
      .language;
    expect(pdfText(pdf)).toContain(language === 'zh' ? '3.8 MPa（要求 ≥ 3.8 MPa）' : '3.8 MPa (required ≥ 3.8 MPa)');

    // By the QR code's link.
    await page.goto(`/search?report=${id}`);
    const linked = page.getByTestId('linked-verification');
    await expect(linked.getByTestId('verification-genuine')).toBeVisible();
    await expect(linked).toContainText(facts.number);
    await expect(linked).toContainText(issued!.serial);
    await expect(linked).toContainText(facts.sha256);
    await check(page, 'verify-link', lang);

    // By the typed code, in lower case without the dash.
    const panel = page.getByTestId('verify');
    await panel.getByLabel(tr(lang, 'search.verify.codeLabel'), { exact: true }).fill(facts.code.replace('-', '').toLowerCase());
    await panel.getByRole('button', { name: tr(lang, 'search.verify.check') }).click();
    await expect(panel.getByTestId('verification-genuine')).toContainText(facts.number);

    // By the file itself, and a changed copy of it.
    await panel.locator('#report-file').setInputFiles({ name: 'report.pdf', mimeType: 'application/pdf', buffer: pdf });
    await expect(panel.getByTestId('verification-genuine')).toContainText(facts.sha256);
    // A changed copy still names its certificate: it is said not to be the one issued, with the genuine one.
    const changed = Buffer.concat([pdf, Buffer.from('\n% changed\n')]);
    await panel.locator('#report-file').setInputFiles({ name: 'changed.pdf', mimeType: 'application/pdf', buffer: changed });
    const altered = panel.getByTestId('verification-altered');
    await expect(altered).toContainText(tr(lang, 'search.verify.altered'));
    await expect(altered).toContainText(facts.number);
    const genuine = await page.request.get((await altered.getByTestId('genuine-file').getAttribute('href'))!);
    expect(Buffer.from(await genuine.body()).equals(pdf)).toBe(true);
    await check(page, 'verify-altered', lang);
    // A PDF that names no certificate issued is not known.
    const stranger = Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');
    await panel.locator('#report-file').setInputFiles({ name: 'other.pdf', mimeType: 'application/pdf', buffer: stranger });
    await expect(panel.getByTestId('verification-unknown')).toHaveText(
      tr(lang, 'search.verify.unknown') + tr(lang, 'search.verify.unknownFile'),
    );
    await check(page, 'verify-unknown', lang);

    // An unknown link says only that.
    await page.goto('/search?report=AAAAAAAAAAAAAAAAAAAAAA');
    await expect(page.getByTestId('linked-verification').getByTestId('verification-unknown')).toHaveText(tr(lang, 'search.verify.unknown'));
    await context.close();
  });
}

test('the language switch is remembered in the browser', async ({ browser, baseURL }) => {
  const { context, page } = await visitor(browser, baseURL!, 'en', 390);
  await page.goto('/search');
  await page.getByTestId('language-switch').click();
  await expect(page.getByRole('heading', { level: 1, name: tr('zh', 'pages.search') })).toBeVisible();
  await expect(page.locator('#serial-input')).toBeVisible();
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hant');
  await expect(page.getByText(tr('zh', 'search.lookup.serial')).first()).toBeVisible();
  await context.close();
});
