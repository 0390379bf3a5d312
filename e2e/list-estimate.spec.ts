/**
 * An estimated list total (the API's `totalEstimated`, docs/decisions/0025-kept-quality-outcomes.md) reads
 * "about N" in the list's pagination, in English and Chinese, at 1440 and 390 px; an exact total does not.
 * The Searches list's answer is taken from the real server and only its total marked estimated in flight
 * (a real estimate needs more than 10,000 matching requests). Screenshots under e2e/artifacts/list-estimate.
 */
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { staffBrowser } from './catalogue-helpers';
import { widthsFor } from './looks';
import { keepScreenshot } from './shots';

const OUT = path.join('e2e', 'artifacts', 'list-estimate');

for (const lang of ['en', 'zh'] as const) {
  for (const width of widthsFor(lang, 390)) {
    test(`an estimated total reads "about" (${lang}, ${width} px)`, async ({ browser, baseURL }) => {
      const { context, page } = await staffBrowser(browser, {
        lang,
        baseURL: baseURL!,
        viewport: { width, height: width < 600 ? 844 : 900 },
      });
      try {
        await page.route(/\/api\/v1\/search-requests\?/, async (route) => {
          const res = await route.fetch();
          const body = (await res.json()) as { data: { items: unknown[]; total: number; totalEstimated?: boolean } };
          await route.fulfill({ response: res, json: { ...body, data: { ...body.data, total: 1_234_567, totalEstimated: true } } });
        });
        await page.goto('/searches');
        const about = lang === 'en' ? /of about 1,234,567/ : /共約 1,234,567 筆/;
        await expect(page.getByText(about)).toBeVisible();
        await keepScreenshot(page, { path: path.join(OUT, `searches-${lang}-${width}.png`), fullPage: true });
        // The reload goes to the real server untouched; a request still held by the handler when the page
        // reloads is let go rather than failing the test on its disposed response.
        await page.unrouteAll({ behavior: 'ignoreErrors' });
        await page.reload();
        await expect(page.getByText(lang === 'en' ? /of \d+$/ : /共 \d+ 筆/)).toBeVisible();
        await expect(page.getByText(about)).toHaveCount(0);
      } finally {
        await context.close();
      }
    });
  }
}
