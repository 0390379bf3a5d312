/**
 * The catalogue lists on a 390 px phone: each row is a card whose key fields (the Ending Serial) and
 * actions are on screen, and nothing scrolls sideways; the card's actions work (delete asks first) and
 * the sort, whose column headers are gone, and the fluid filter are the phone's own selects. In English and
 * Chinese.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { createProduct, createRange, stamp, staffBrowser } from './catalogue-helpers';
import { chooseFilter } from './helpers';
import { translator } from './screen-kit';

const tr = translator(['products']);

const PHONE = { width: 390, height: 844 };

const TEXT = {
  en: {
    edit: 'Edit',
    delete: 'Delete',
    endSerial: 'Ending Serial',
    sortBy: 'Sort by',
    deleteTitle: 'Delete product?',
    next: 'Go to the next page',
    last: 'Go to the last page',
  },
  zh: {
    edit: '編輯',
    delete: '刪除',
    endSerial: '結束序號',
    sortBy: '排序依據',
    deleteTitle: '刪除產品？',
    next: '下一頁',
    last: '最後一頁',
  },
} as const;

/** Nothing of the page is wider than the phone: no sideways scrolling. */
async function expectNoSidewaysScroll(page: Page) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll, 'page scrolls sideways').toBeLessThanOrEqual(client);
}

/** The element is visible and lies inside the viewport's width. */
async function expectOnScreen(el: Locator) {
  await expect(el).toBeVisible();
  const box = await el.boundingBox();
  expect(box, 'has a box').not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
}

for (const lang of ['en', 'zh'] as const) {
  test(`products and serial numbers show cards at 390 px with the ending serial and the actions on screen (${lang})`, async ({
    browser,
    baseURL,
  }) => {
    const x = TEXT[lang];
    const { context, page } = await staffBrowser(browser, { lang, baseURL: baseURL!, viewport: PHONE });
    const product = await createProduct(context.request, {
      name: `${lang === 'zh' ? '手機閘閥' : 'Phone Gate Valve'} DN50 ${stamp()}`,
      pressureWcb: 2.5,
    });
    const prefix = `PH${stamp().toUpperCase()}-`;
    await createRange(context.request, {
      productId: product.id,
      startSerial: `${prefix}000001`,
      endSerial: `${prefix}000250`,
      totalUnits: 250,
    });

    await page.goto(`/products?q=${encodeURIComponent(product.name)}`);
    const productCard = page.getByTestId('row-card').filter({ hasText: product.name });
    await expect(productCard).toHaveCount(1);
    await expect(page.locator('table')).toHaveCount(0);
    await expectOnScreen(productCard);
    await expectOnScreen(productCard.getByRole('link', { name: `${x.edit} ${product.name}` }));
    await expectOnScreen(productCard.getByRole('button', { name: `${x.delete} ${product.name}` }));
    await expectNoSidewaysScroll(page);

    // The fluid filter is the phone's own select too, and keeps its choice in the address.
    const fluid = page.locator('#fluid-filter');
    await chooseFilter(page, fluid, tr(lang, 'products.fluids.steam'));
    await expect(page).toHaveURL(/fluid=steam/);
    await expect(productCard).toHaveCount(0);
    await chooseFilter(page, fluid, tr(lang, 'products.fluids.water'));
    await expect(productCard).toHaveCount(1);
    await chooseFilter(page, fluid, tr(lang, 'products.list.allFluids'));
    await expect(page).not.toHaveURL(/fluid=/);
    await expect(productCard).toHaveCount(1);

    // The card's Delete asks first (a product that a range uses is then refused, in the dialog).
    await productCard.getByRole('button', { name: `${x.delete} ${product.name}` }).click();
    const dialog = page.getByRole('dialog', { name: x.deleteTitle });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: x.delete, exact: true }).click();
    await expect(dialog.getByTestId('delete-error')).toBeVisible();
    await page.keyboard.press('Escape');

    await page.goto(`/serial-numbers?q=${encodeURIComponent(prefix)}`);
    const rangeCard = page.getByTestId('row-card').filter({ hasText: product.name });
    await expect(rangeCard).toHaveCount(1);
    await expect(page.locator('table')).toHaveCount(0);
    const end = rangeCard.getByText(`${prefix}000250`, { exact: true });
    await expectOnScreen(end);
    await expect(rangeCard.getByText(x.endSerial, { exact: true })).toBeVisible();
    await expectOnScreen(rangeCard.getByRole('link', { name: new RegExp(`^${x.edit} `) }));
    await expectOnScreen(rangeCard.getByRole('button', { name: new RegExp(`^${x.delete} `) }));
    await expectNoSidewaysScroll(page);

    // The whole list: its page buttons stay on screen however long the count reads.
    await page.goto('/serial-numbers');
    await expect(page.getByTestId('row-card').first()).toBeVisible();
    await expectOnScreen(page.getByRole('button', { name: x.next }));
    await expectOnScreen(page.getByRole('button', { name: x.last }));
    await expectNoSidewaysScroll(page);

    // Sorting without column headers: the select keeps the sort in the address.
    await page.getByRole('combobox', { name: x.sortBy }).selectOption({ label: x.endSerial });
    await expect(page).toHaveURL(/sort=endSerial/);
    await context.close();
  });
}
