/**
 * Nameplate labels and the scan-to-report path, in a real Chromium at 390 and 1440 px, English and Chinese:
 * staff print QR labels of a range from Serial Numbers (the dialog, a part of the range, the PDF saved);
 * a visitor's near-miss serial is offered and looked up with one tap; the verification opened by the
 * report's link shows its results and says that only the file can show it is unchanged. Screenshots under
 * e2e/artifacts/labels-verify.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { staffBrowser } from './catalogue-helpers';
import { makeWorld, type World } from './report-world';
import { ADMIN_STATE } from './helpers';
import { API_598 } from '../src/shared/standards/api-598';
import { editionIn } from '../src/shared/standards/requirement-view';
import { labelled } from '../src/shared/i18n/punctuation';
import { expectAxeClean, translator, type Language } from './screen-kit';
import { widthsFor } from './looks';
import { keepScreenshot } from './shots';

const OUT = path.join('e2e', 'artifacts', 'labels-verify');
const tr = translator(['search', 'labels', 'pages']);

async function shot(page: Page, name: string, lang: Language) {
  const width = page.viewportSize()?.width ?? 1440;
  await page.waitForTimeout(300);
  await keepScreenshot(page, { path: path.join(OUT, `${name}-${lang}-${width}.png`), fullPage: true });
  await expectAxeClean(page, `${name} ${lang} ${width}`);
}

let world: World;

test.beforeAll(async ({ browser }) => {
  fs.mkdirSync(OUT, { recursive: true });
  const admin = await browser.newContext({ storageState: ADMIN_STATE });
  world = await makeWorld(admin.request);
  await admin.close();
});

for (const lang of ['en', 'zh'] as const) {
  for (const width of widthsFor(lang, 390)) {
    test(`labels, near miss and verification: ${lang} ${width}`, async ({ browser, baseURL }) => {
      const viewport = { width, height: width < 600 ? 844 : 900 };
      // Staff: Print labels of a part of the range.
      const staff = await staffBrowser(browser, { lang, baseURL: baseURL!, viewport });
      await staff.page.goto(`/serial-numbers?q=${encodeURIComponent(world.prefix)}`);
      await staff.page
        .getByRole('button', { name: labelled(lang, tr(lang, 'labels.print'), `${world.prefix}000001 – ${world.prefix}000500`) })
        .click();
      const dialog = staff.page.getByRole('dialog', { name: tr(lang, 'labels.title') });
      await expect(dialog).toContainText(world.product);
      await dialog.getByLabel(tr(lang, 'labels.from')).fill(`${world.prefix.toLowerCase()}000010`);
      await dialog.getByLabel(tr(lang, 'labels.to')).fill(`${world.prefix}000009`);
      await expect(dialog.getByText(tr(lang, 'labels.toBeforeFrom'))).toBeVisible();
      await expect(dialog.getByRole('button', { name: tr(lang, 'labels.download') })).toBeDisabled();
      await dialog.getByLabel(tr(lang, 'labels.to')).fill(`${world.prefix}000033`);
      await expect(dialog.getByTestId('labels-count')).toContainText('24');
      await dialog.getByLabel(tr(lang, 'labels.layouts.single')).check();
      // This server's links open 127.0.0.1 only: the labels are test labels, confirmed before they print.
      await expect(dialog.getByTestId('labels-local-address')).toBeVisible();
      await expect(dialog.getByRole('button', { name: tr(lang, 'labels.download') })).toBeDisabled();
      await dialog.getByLabel(tr(lang, 'labels.printTest')).check();
      await shot(staff.page, 'labels-dialog', lang);
      const [download] = await Promise.all([
        staff.page.waitForEvent('download'),
        dialog.getByRole('button', { name: tr(lang, 'labels.download') }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`labels-${world.prefix}000010-${world.prefix}000033.pdf`);
      const file = fs.readFileSync((await download.path())!);
      expect(file.subarray(0, 5).toString()).toBe('%PDF-');
      expect((file.toString('latin1').match(/\/Type \/Page\b(?!s)/g) ?? []).length).toBe(24);
      await expect(dialog).toHaveCount(0);
      await staff.context.close();

      // A visitor types the serial with a space for the dash: offered, and looked up with one tap.
      const context = await browser.newContext({ viewport });
      await context.addCookies([{ name: 'test-report-center-language', value: lang, domain: new URL(baseURL!).hostname, path: '/' }]);
      const page = await context.newPage();
      await page.goto('/search');
      // Once React has taken the page over: Enter pressed while it hydrates can be lost.
      await expect(page.locator('html')).toHaveAttribute('data-ready', 'true');
      await page.locator('#serial-input').fill(`${world.prefix.slice(0, -1).toLowerCase()} 000002`);
      await page.locator('#serial-input').press('Enter');
      const offer = page.getByTestId('did-you-mean');
      await expect(offer).toContainText(tr(lang, 'search.lookup.didYouMean'));
      await shot(page, 'near-miss', lang);
      await offer.getByRole('button', { name: `${world.prefix}000002` }).click();
      await expect(page.getByRole('heading', { level: 3, name: world.product })).toBeVisible();
      await expect(page.getByTestId('lookup-results')).toContainText(`${world.prefix}000002`);

      // The report's link: results with required and measured, and the file is not called unchanged.
      await page.goto(`/search?report=${world.reportId}`);
      const linked = page.getByTestId('linked-verification');
      await expect(linked.getByTestId('verification-genuine')).toBeVisible();
      await expect(linked).toContainText(tr(lang, 'search.verify.genuineText'));
      await expect(linked).not.toContainText(tr(lang, 'search.verify.fileUnchanged'));
      await expect(linked.getByTestId('check-the-file')).toBeVisible();
      await expect(linked.getByTestId('verification-test')).toHaveCount(2);
      await expect(linked.getByTestId('verification-test').first()).toContainText('3.8 MPa');
      await expect(linked).toContainText(tr(lang, 'search.verify.results.required'));
      // The standard's edition in the page's language, whatever language the report was issued in.
      await expect(linked).toContainText(tr(lang, 'search.verify.standardEdition', { name: 'API 598', edition: editionIn(API_598, lang) }));
      await shot(page, 'verify-link', lang);

      // The file itself dropped on the page: now it is called unchanged.
      const pdf = await (await context.request.get(`/api/v1/public/reports/${world.reportId}.pdf`)).body();
      const panel = page.getByTestId('verify');
      await panel.locator('#report-file').setInputFiles({ name: 'report.pdf', mimeType: 'application/pdf', buffer: pdf });
      await expect(panel.getByTestId('verification-genuine')).toContainText(tr(lang, 'search.verify.fileUnchanged'));
      await expect(panel.getByTestId('check-the-file')).toHaveCount(0);
      await shot(page, 'verify-file', lang);
      await context.close();
    });
  }
}
