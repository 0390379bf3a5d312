/**
 * The Settings screen (issue 9): an admin changes the company name and the terms, the terms' version goes
 * up, and the public page shows both; a staff member reads the settings without being able to change
 * them. At 1440 and 390 px in English and Chinese, with screenshots under e2e/artifacts/settings.
 */
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { stamp, staffBrowser } from './catalogue-helpers';
import { ADMIN_STATE, createStaff, signInByApi } from './helpers';

const OUT = path.join('e2e', 'artifacts', 'settings');
type Language = 'en' | 'zh';
type Tree = { [key: string]: string | Tree };
const read = (lang: Language, ns: string) => JSON.parse(fs.readFileSync(path.join('src', 'shared', 'i18n', lang, `${ns}.json`), 'utf8')) as Tree;
const CATALOGUES: Record<Language, Tree> = {
  en: { settingsScreen: read('en', 'settingsScreen'), settings: read('en', 'settings'), app: read('en', 'app') },
  zh: { settingsScreen: read('zh', 'settingsScreen'), settings: read('zh', 'settings'), app: read('zh', 'app') },
};

function tr(lang: Language, key: string, params: Record<string, unknown> = {}): string {
  let node: string | Tree | undefined = CATALOGUES[lang];
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') throw new Error(`no text ${key} in ${lang}`);
  return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(params[name] ?? ''));
}

async function check(page: Page, name: string, lang: Language) {
  const width = page.viewportSize()?.width ?? 1440;
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(OUT, `${name}-${lang}-${width}.png`), fullPage: true });
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect.soft(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`), `${name} ${lang} ${width}`).toEqual([]);
}

test.describe.configure({ mode: 'serial' });

for (const lang of ['en', 'zh'] as const) {
  test(`an admin changes the company name and the terms; the version goes up: ${lang}`, async ({ browser, baseURL }) => {
    fs.mkdirSync(OUT, { recursive: true });
    const first = await browser.newContext({ storageState: ADMIN_STATE });
    const member = await createStaff(first.request, { role: 'admin' });
    await first.close();
    const width = lang === 'en' ? 1440 : 390;
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    await context.addCookies([{ name: 'test-report-center-language', value: lang, domain: new URL(baseURL!).hostname, path: '/' }]);
    await signInByApi(context.request, member.email, member.password);
    expect((await context.request.patch('/api/v1/auth/me', { data: { language: lang } })).ok()).toBe(true);
    const page = await context.newPage();

    await page.goto('/settings');
    await expect(page.getByRole('heading', { level: 1, name: tr(lang, 'settingsScreen.title') })).toBeVisible();
    const version = page.getByTestId('terms-version');
    const before = Number((await version.textContent())!.match(/\d+/)![0]);
    await expect(page.getByTestId('certificate-facts')).toContainText(/[0-9A-F]{2}(:[0-9A-F]{2}){31}/);
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
  await check(page, 'settings-staff', 'en');
  await context.close();
});
