/**
 * Authorised inspectors and the release of a serial range, web side: an admin marks themselves an authorised
 * inspection representative from the staff list (a missing title is refused under its field, in the page's
 * language), then opens a range's Release dialog, reads the gate's summary of its units, releases it and sees
 * who released it and when. In the same dialog the admin uploads the inspector's stamp: a file that is not an
 * image is refused under it, a PNG is shown. English at 1440 px and Chinese at 390 px (E2E_EVERY_LOOK: both at both), with
 * screenshots and an axe check.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser } from '@playwright/test';
import { PNG } from 'pngjs';
import { createProduct, createRange, stamp } from './catalogue-helpers';
import { ADMIN_STATE, createStaff, signInByApi } from './helpers';
import { widthsFor } from './looks';
import { screenshotter, translator, type Language } from './screen-kit';

const OUT = path.join('e2e', 'artifacts', 'inspector-release');
const shot = screenshotter(OUT);
const tr = translator(['staffScreens', 'serials', 'staff', 'app']);

/** A red ring on a transparent ground, as a stamp is scanned: 240 × 120 pixels. */
function redStamp(): Buffer {
  const img = new PNG({ width: 240, height: 120 });
  for (let y = 0; y < 120; y++)
    for (let x = 0; x < 240; x++) {
      const r = Math.hypot((x - 120) / 112, (y - 60) / 56);
      img.data.set(r > 0.84 && r < 1 ? [190, 20, 30, 255] : [0, 0, 0, 0], (y * 240 + x) * 4);
    }
  return PNG.sync.write(img);
}

/** A new admin signed in in `lang`; returned with the name the staff list shows. */
async function admin(browser: Browser, baseURL: string, lang: Language, viewport: { width: number; height: number }) {
  const first = await browser.newContext({ storageState: ADMIN_STATE });
  const member = await createStaff(first.request, { role: 'admin', name: `${lang === 'zh' ? '林美華' : 'Mei-Hua Lin'} ${stamp()}` });
  await first.close();
  const context = await browser.newContext({ viewport });
  await context.addCookies([{ name: 'test-report-center-language', value: lang, domain: new URL(baseURL).hostname, path: '/' }]);
  await signInByApi(context.request, member.email, member.password);
  expect((await context.request.patch('/api/v1/auth/me', { data: { language: lang } })).ok()).toBe(true);
  return { context, page: await context.newPage(), member };
}

for (const lang of ['en', 'zh'] as const) {
  for (const width of widthsFor(lang, 1440)) {
    test(`an inspector releases a serial range: ${lang} ${width}`, async ({ browser, baseURL }) => {
      fs.mkdirSync(OUT, { recursive: true });
      const { context, page, member } = await admin(browser, baseURL!, lang, { width, height: width < 600 ? 844 : 900 });
      const title = lang === 'zh' ? '品保經理' : 'QA Manager';

      // Marked as an authorised inspector from the staff list: a title is required.
      await page.goto(`/staffs?q=${encodeURIComponent(member.email)}`);
      await page.getByRole('button', { name: tr(lang, 'staffScreens.actionsFor', { name: member.name }) }).click();
      await page.getByRole('menuitem', { name: tr(lang, 'staffScreens.inspectorAction') }).click();
      const dialog = page.getByRole('dialog', { name: tr(lang, 'staffScreens.inspectorOf', { name: member.name }) });
      await dialog.getByLabel(tr(lang, 'staffScreens.inspector')).check();
      await dialog.getByRole('button', { name: tr(lang, 'app.save') }).click();
      await expect(dialog.getByText(tr(lang, 'staff.validation.inspectorTitleRequired'))).toBeVisible();
      await shot(page, 'inspector-dialog', lang);
      await dialog.getByLabel(tr(lang, 'staffScreens.inspectorTitle')).fill(title);
      await dialog.getByRole('button', { name: tr(lang, 'app.save') }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByText(tr(lang, 'staffScreens.inspectorChip'), { exact: true }).first()).toBeVisible();
      await shot(page, 'inspector-staff', lang);

      // The stamp, in the same dialog: a file that is not an image is refused under it, a PNG is shown and kept.
      await page.getByRole('button', { name: tr(lang, 'staffScreens.actionsFor', { name: member.name }) }).click();
      await page.getByRole('menuitem', { name: tr(lang, 'staffScreens.inspectorAction') }).click();
      await expect(dialog.getByText(tr(lang, 'staffScreens.stampNone'))).toBeVisible();
      await dialog
        .getByTestId('stamp-input')
        .setInputFiles({ name: 'stamp.png', mimeType: 'image/png', buffer: Buffer.from('not a picture') });
      await dialog.getByRole('button', { name: tr(lang, 'staffScreens.stampUpload') }).click();
      await expect(dialog.getByRole('alert')).toHaveText(tr(lang, 'staff.stamp.type'));
      await dialog
        .getByRole('button', { name: tr(lang, 'app.cancel') })
        .first()
        .click();
      await dialog.getByTestId('stamp-input').setInputFiles({ name: 'stamp.png', mimeType: 'image/png', buffer: redStamp() });
      await dialog.getByRole('button', { name: tr(lang, 'staffScreens.stampUpload') }).click();
      await expect(dialog.getByRole('button', { name: tr(lang, 'staffScreens.stampRemove') })).toBeVisible();
      const img = dialog.getByRole('img', { name: tr(lang, 'staffScreens.stampAlt', { name: member.name }) });
      await expect(img).toBeVisible();
      expect(await img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(240);
      await shot(page, 'inspector-stamp', lang);
      await dialog.getByRole('button', { name: tr(lang, 'app.cancel') }).click();
      await expect(dialog).toBeHidden();

      // A range of 100 units without test data yet: the gate's summary, then the release.
      const product = await createProduct(context.request, { name: `Gate Valve ${stamp()}` });
      const prefix = `IR${Array.from({ length: 5 }, () => String.fromCharCode(65 + Math.floor(Math.random() * 26))).join('')}-`;
      await createRange(context.request, {
        productId: product.id,
        startSerial: `${prefix}000001`,
        endSerial: `${prefix}000100`,
        totalUnits: 100,
      });
      // Reloaded, the app knows the signed-in user is an inspector now.
      await page.goto(`/serial-numbers?q=${encodeURIComponent(`${prefix}000001`)}`);
      const open = page.getByRole('button', { name: new RegExp(`${tr(lang, 'serials.release.action')}.*${prefix}000001`) }).first();
      await open.click();
      const release = page.getByRole('dialog');
      await expect(release.getByTestId('release-status')).toHaveText(tr(lang, 'serials.release.notReleased'));
      await expect(release.getByTestId('release-gate')).toContainText(tr(lang, 'serials.release.noData', { n: '100' }));
      await expect(release.getByText(tr(lang, 'serials.release.intro'))).toBeVisible();
      await shot(page, 'release-dialog', lang);
      await release.getByRole('button', { name: tr(lang, 'serials.release.confirm') }).click();
      await expect(release.getByTestId('release-status')).toContainText(member.name);
      await expect(release.getByTestId('release-status')).toContainText(title);
      await expect(release.getByRole('button', { name: tr(lang, 'serials.release.confirm') })).toHaveCount(0);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await shot(page, 'released', lang);
      await context.close();
    });
  }
}
