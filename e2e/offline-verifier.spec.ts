/**
 * The offline verifier (docs/decisions/0063-offline-verification.md) in a real Chromium at 390 px, English
 * and Chinese: opened once from /search with a network, it keeps itself and the keys; with the network cut
 * (Playwright's offline mode) it still opens, reads a photo of a report's QR code, says the report is genuine
 * with its facts and what it cannot know offline, and reads a changed code as not genuine with the reason.
 * The report's own link opened offline gets the verifier too. Screenshots under e2e/artifacts/offline-verifier.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN_STATE } from './helpers';
import { makeWorld, type World } from './report-world';
import { expectAxeClean, translator, type Language } from './screen-kit';
import { keepScreenshot } from './shots';

const OUT = path.join('e2e', 'artifacts', 'offline-verifier');
const tr = translator(['verifier', 'search']);

let world: World;
/** page 1 of the report at 150 dpi, as a photo of it would be read */
let photo: string;
/** what the report's QR code says: its link and its proof */
let codeText: string;

test.beforeAll(async ({ browser }) => {
  fs.mkdirSync(OUT, { recursive: true });
  const admin = await browser.newContext({ storageState: ADMIN_STATE });
  world = await makeWorld(admin.request);
  const pdf = await admin.request.get(`/api/v1/public/reports/${world.reportId}.pdf`);
  expect(pdf.status()).toBe(200);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-verifier-'));
  fs.writeFileSync(path.join(dir, 'report.pdf'), await pdf.body());
  await admin.close();
  execFileSync('pdftoppm', [
    '-r',
    '150',
    '-png',
    '-f',
    '1',
    '-l',
    '1',
    '-singlefile',
    path.join(dir, 'report.pdf'),
    path.join(dir, 'photo'),
  ]);
  photo = path.join(dir, 'photo.png');
  codeText = execFileSync('zbarimg', ['--quiet', '--raw', '-Sdisable', '-Sqrcode.enable', photo], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  }).trim();
  expect(codeText).toContain(`/search?report=${world.reportId}#`);
});

async function shot(page: Page, name: string, lang: Language) {
  await keepScreenshot(page, { path: path.join(OUT, `${name}-${lang}-390.png`), fullPage: true });
  await expectAxeClean(page, `verifier ${name} ${lang}`);
}

for (const lang of ['en', 'zh'] as const) {
  test(`the offline verifier: ${lang} 390`, async ({ browser }) => {
    const t = (key: string, params?: Record<string, string>) => tr(lang, key, params);
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: lang === 'zh' ? 'zh-TW' : 'en-GB' });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });

    // Found from the public page, opened once with a network: it keeps itself for offline use.
    await page.goto('/search');
    await page.getByTestId('offline-verifier-link').click();
    await expect(page).toHaveURL(/\/verify$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('verifier.title'));
    await expect(page.getByTestId('verifier-status')).toHaveClass(/vf-ready/);

    // Online: a genuine report, and the server's word on it.
    await page.getByLabel(t('verifier.paste')).fill(codeText);
    await page.getByRole('button', { name: t('verifier.check'), exact: true }).click();
    const result = page.getByTestId('verifier-result');
    await expect(result.getByRole('heading')).toHaveText(t('verifier.genuine'));
    await expect(page.getByTestId('verifier-online')).toHaveText(t('verifier.online.current'));

    // The network cut: the page opens again from the device and reads a photo of the code.
    await context.setOffline(true);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('verifier.title'));
    await expect(page.getByTestId('verifier-status')).toHaveClass(/vf-ready/);
    await page.locator('#vf-photo').setInputFiles(photo);
    await expect(result.getByRole('heading')).toHaveText(t('verifier.genuine'));
    await expect(result).toContainText(`${world.prefix}000001`);
    await expect(result).toContainText(t('verifier.pass'));
    await expect(result).toContainText(t('verifier.offlineLimits'));
    await expect(page.getByTestId('verifier-online')).toHaveText(t('verifier.online.offline'));
    await shot(page, 'genuine-offline', lang);

    // A changed code: not genuine, and why.
    const [link, jws] = codeText.split('#') as [string, string];
    const [head, claims, signature] = jws.split('.') as [string, string, string];
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(claims, 'base64url').toString()), s: 'FORGED-000001' })).toString(
      'base64url',
    );
    await page.getByLabel(t('verifier.paste')).fill(`${link}#${head}.${forged}.${signature}`);
    await page.getByRole('button', { name: t('verifier.check'), exact: true }).click();
    await expect(result.getByRole('heading')).toHaveText(t('verifier.notGenuine'));
    await expect(result).toContainText(t('verifier.reason.bad-signature'));
    await expect(result.getByRole('link')).toHaveCount(0);
    await shot(page, 'not-genuine-offline', lang);

    // The report's own link, opened from a phone's camera app without a network, reaches the verifier.
    await page.goto(codeText);
    await expect(result.getByRole('heading')).toHaveText(t('verifier.genuine'));
    await expect(result).toContainText(`${world.prefix}000001`);

    expect(errors.filter((e) => !/net::ERR_INTERNET_DISCONNECTED|Failed to load resource/.test(e))).toEqual([]);
    await context.close();
  });
}
