/**
 * A list row's buttons (and the bar's customizer button) show their hints from the one tooltip of the layout (src/web/components/hint.tsx,
 * docs/decisions/0078-one-hint-for-a-list.md): for the mouse resting on a button and for the keyboard's focus,
 * gone when the pointer leaves, on Escape and when the button is pressed.
 */
import { expect, test } from '@playwright/test';
import { createProduct, staffBrowser, stamp } from './catalogue-helpers';

test("a row's buttons show their hints for the mouse and the keyboard", async ({ browser, baseURL }) => {
  const { context, page } = await staffBrowser(browser, { baseURL: baseURL!, lang: 'zh' });
  const product = await createProduct(context.request, { name: `HINT-${stamp()}` });
  await page.goto(`/products?q=${product.name}`);
  const edit = page.locator(`[data-hint][aria-label*="${product.name}"]`).first();
  const remove = page.locator(`[data-hint][aria-label*="${product.name}"]`).last();
  await expect(edit).toHaveAttribute('data-hint', '編輯');
  await expect(remove).toHaveAttribute('data-hint', '刪除');
  const tooltip = page.getByRole('tooltip');
  await expect(tooltip).toHaveCount(0);

  // The mouse rests on Edit, then on Delete: each shows its own, one at a time, beside its button.
  await edit.hover();
  await expect(tooltip).toHaveText('編輯');
  await remove.hover();
  await expect(tooltip).toHaveText('刪除');
  await expect(tooltip).toHaveCount(1);
  const [button, tip] = [await remove.boundingBox(), await tooltip.boundingBox()];
  expect(Math.abs(button!.x + button!.width / 2 - (tip!.x + tip!.width / 2))).toBeLessThan(4);
  expect(tip!.y).toBeGreaterThan(button!.y + button!.height - 1);
  // Away from every button: gone.
  await page.mouse.move(5, 5);
  await expect(tooltip).toHaveCount(0);

  // The keyboard: Tab from Edit to Delete shows Delete's; Escape hides it and the focus stays.
  await edit.focus();
  await page.keyboard.press('Tab');
  await expect(remove).toBeFocused();
  await expect(tooltip).toHaveText('刪除');
  await page.keyboard.press('Escape');
  await expect(tooltip).toHaveCount(0);
  await expect(remove).toBeFocused();

  // The bar's button that opens the customizer shows its hint from the same tooltip.
  await page.getByTestId('open-customizer').hover();
  await expect(tooltip).toHaveText('自訂介面');
  await page.mouse.move(5, 5);
  await expect(tooltip).toHaveCount(0);

  // A click (which opens the delete question) is not a hover that lasts: no hint is left over the dialog.
  await remove.click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expect(tooltip).toHaveCount(0);
  await context.close();
});
