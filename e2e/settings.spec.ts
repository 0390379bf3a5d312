/**
 * The Settings screen: an admin changes the company name and the terms, the terms' version goes
 * up, and the public page shows both; a staff member reads the settings without being able to change
 * them. At 1440 and 390 px in English and Chinese, with screenshots under e2e/artifacts/settings.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { stamp, staffBrowser } from './catalogue-helpers';
import { ADMIN_STATE, createStaff, signInByApi } from './helpers';
import { expectAxeClean, translator, type Language } from './screen-kit';
import { keepScreenshot } from './shots';

const OUT = path.join('e2e', 'artifacts', 'settings');
const tr = translator(['settingsScreen', 'settings', 'app']);

async function check(page: Page, name: string, lang: Language) {
  const width = page.viewportSize()?.width ?? 1440;
  await page.waitForTimeout(300);
  await keepScreenshot(page, { path: path.join(OUT, `${name}-${lang}-${width}.png`), fullPage: true });
  await expectAxeClean(page, `${name} ${lang} ${width}`);
}

/** An admin of the test's own, so that its language and sessions are nobody else's. */
async function newAdmin(browser: Browser): Promise<{ email: string; password: string }> {
  const first = await browser.newContext({ storageState: ADMIN_STATE });
  const member = await createStaff(first.request, { role: 'admin' });
  await first.close();
  return member;
}

/** A page signed in as `member` in `lang`: English at 1440 px, Chinese at 390 px. */
async function signedIn(browser: Browser, baseURL: string, member: { email: string; password: string }, lang: Language) {
  const width = lang === 'en' ? 1440 : 390;
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  await context.addCookies([{ name: 'test-report-center-language', value: lang, domain: new URL(baseURL).hostname, path: '/' }]);
  await signInByApi(context.request, member.email, member.password);
  expect((await context.request.patch('/api/v1/auth/me', { data: { language: lang } })).ok()).toBe(true);
  return { context, page: await context.newPage(), width };
}

test.describe.configure({ mode: 'serial' });

for (const lang of ['en', 'zh'] as const) {
  test(`an admin changes the company name and the terms; the version goes up: ${lang}`, async ({ browser, baseURL }) => {
    fs.mkdirSync(OUT, { recursive: true });
    const member = await newAdmin(browser);
    const { context, page } = await signedIn(browser, baseURL!, member, lang);
    // The certificate is made when the first report is signed; this test may run before any report is.
    const settings = await context.request.get('/api/v1/settings');
    if ((await settings.json()).data.certificate === null) {
      expect((await context.request.post('/api/v1/settings/certificate/generate')).ok()).toBe(true);
    }

    await page.goto('/settings');
    await expect(page.getByRole('heading', { level: 1, name: tr(lang, 'settingsScreen.title') })).toBeVisible();
    const version = page.getByTestId('terms-version');
    const before = Number((await version.textContent())!.match(/\d+/)![0]);
    await expect(page.getByTestId('certificate-facts')).toContainText(/[0-9A-F]{2}(:[0-9A-F]{2}){31}/);
    // The generated certificate is self-signed: the screen says what readers show and how to change it.
    const trust = page.getByTestId('certificate-trust');
    await expect(trust).toContainText(lang === 'zh' ? '簽發者不明' : 'issuer unknown');
    await expect(trust).toContainText('PKCS#12');
    await expect(trust).toContainText(tr(lang, 'settingsScreen.certificate.trust.after'));

    // The verification keys: rotated by the admin, the earlier one kept and said to verify what it signed.
    const keys = page.getByTestId('verification-keys');
    await expect(keys).toContainText('/.well-known/jwks.json');
    const rows = keys.locator('tbody tr');
    const keysBefore = await rows.count();
    await keys.getByRole('button', { name: tr(lang, 'settingsScreen.keys.rotate') }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: tr(lang, 'settingsScreen.keys.rotate') })
      .click();
    await expect(page.getByText(tr(lang, 'settings.keyRotated'))).toBeVisible();
    await expect(rows).toHaveCount(keysBefore + 1);
    await expect(rows.first()).toContainText(tr(lang, 'settingsScreen.keys.current'));
    if (keysBefore > 0) await expect(rows.nth(1)).not.toContainText(tr(lang, 'settingsScreen.keys.current'));
    await check(page, 'settings', lang);

    const company = `Valve Works ${stamp()}`;
    const terms = `Terms ${stamp()}: the report is for the valve with this serial number.`;
    await page.getByLabel(tr(lang, 'settingsScreen.fields.companyName')).fill('');
    await page.getByRole('button', { name: tr(lang, 'app.save') }).click();
    await expect(page.getByLabel(tr(lang, 'settingsScreen.fields.companyName'))).toHaveAttribute('aria-invalid', 'true');
    await page.getByLabel(tr(lang, 'settingsScreen.fields.companyName')).fill(company);
    await page.getByLabel(tr(lang, 'settingsScreen.fields.termsEn')).fill(terms);
    await page.getByLabel(tr(lang, 'settingsScreen.fields.termsZh')).fill(`條款 ${terms}`);
    await page.getByRole('button', { name: tr(lang, 'app.save') }).click();
    await expect(page.getByText(tr(lang, 'settings.saved'))).toBeVisible();
    await expect(version).toHaveText(tr(lang, 'settingsScreen.terms.version', { version: before + 1 }));

    // Saving again without a change to the terms keeps their version.
    await page.getByLabel(tr(lang, 'settingsScreen.fields.companyAddress')).fill(`1 Valve Road ${stamp()}`);
    await page.getByRole('button', { name: tr(lang, 'app.save') }).click();
    await expect(page.getByRole('button', { name: tr(lang, 'app.save') })).toBeDisabled();
    await expect(version).toHaveText(tr(lang, 'settingsScreen.terms.version', { version: before + 1 }));
    await page.reload();
    await expect(page.getByLabel(tr(lang, 'settingsScreen.fields.companyName'))).toHaveValue(company);
    await check(page, 'settings-saved', lang);

    // The public page shows the new name, and the terms with their version, in its language.
    const visitor = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await visitor.addCookies([{ name: 'test-report-center-language', value: lang, domain: new URL(baseURL!).hostname, path: '/' }]);
    const pub = await visitor.newPage();
    await pub.goto('/search');
    await expect(pub.getByTestId('company-name')).toHaveText(company);
    await visitor.close();
    await context.close();
  });
}

test('staff read the settings and cannot change them', async ({ browser, baseURL }) => {
  const { context, page } = await staffBrowser(browser, { baseURL: baseURL!, lang: 'en', viewport: { width: 390, height: 844 } });
  await page.goto('/settings');
  await expect(page.getByTestId('read-only')).toHaveText(tr('en', 'settingsScreen.readOnly'));
  await expect(page.getByLabel(tr('en', 'settingsScreen.fields.companyName'))).toBeDisabled();
  await expect(page.getByRole('button', { name: tr('en', 'app.save') })).toHaveCount(0);
  await expect(page.getByTestId('certificate-input')).toHaveCount(0);
  await expect(page.getByTestId('verification-keys').getByRole('button')).toHaveCount(0);
  await check(page, 'settings-staff', 'en');
  await context.close();
});

test('the test record archive: an admin sets a retention after confirming its day, and keeps every record again', async ({
  browser,
  baseURL,
}) => {
  fs.mkdirSync(OUT, { recursive: true });
  const member = await newAdmin(browser);
  for (const lang of ['en', 'zh'] as const) {
    const { context, page, width } = await signedIn(browser, baseURL!, member, lang);
    await page.goto('/settings');
    const card = page.getByTestId('record-archive');
    await card.scrollIntoViewIfNeeded();
    const keepAll = card.getByRole('checkbox', { name: tr(lang, 'settingsScreen.archive.keepAll') });
    const years = card.getByLabel(tr(lang, 'settingsScreen.archive.years'));
    const save = card.getByRole('button', { name: tr(lang, 'settingsScreen.archive.save') });
    await expect(keepAll).toBeChecked();
    await expect(years).toBeDisabled();
    await expect(card.getByTestId('record-archive-info')).toHaveText(tr(lang, 'settingsScreen.archive.archivedNone'));

    await keepAll.uncheck();
    await years.fill('0');
    await save.click();
    await expect(card.getByText(tr(lang, 'settings.validation.recordRetentionRange'))).toBeVisible();
    await years.fill('60');
    await save.click();
    // Asked once more, with the day it cuts at; nothing is saved until then.
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading')).toHaveText(tr(lang, 'settingsScreen.archive.confirmTitle', { years: 60 }));
    await check(page, 'settings-archive-confirm', lang);
    await dialog.getByRole('button', { name: tr(lang, 'settingsScreen.archive.save') }).click();
    const stored = async () =>
      ((await (await page.request.get('/api/v1/settings')).json()) as { data: { recordRetentionYears: number | null } }).data
        .recordRetentionYears;
    await expect.poll(stored).toBe(60);
    await expect(save).toBeDisabled();
    await card.scrollIntoViewIfNeeded();
    await keepScreenshot(page, { path: path.join(OUT, `settings-archive-${lang}-${width}.png`) });

    // Back to keeping every record: no question asked.
    await keepAll.check();
    await save.click();
    await expect.poll(stored).toBeNull();
    await context.close();
  }
});
