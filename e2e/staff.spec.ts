/** An admin adds a staff member, who signs in and may not open /staffs; the table keeps its state in the URL. */
import { expect, test } from '@playwright/test';
import { ADMIN_STATE, createStaff, signInThroughUi } from './helpers';

test('an admin adds a staff member who then signs in and is sent to not-authorized from /staffs', async ({ browser }) => {
  const adminContext = await browser.newContext({ storageState: ADMIN_STATE });
  const admin = await adminContext.newPage();
  await admin.goto('/staffs');
  await admin.getByRole('link', { name: 'Add Staff' }).click();
  await expect(admin).toHaveTitle('Add Staff');
  await admin.getByRole('button', { name: 'Add staff' }).click();
  await expect(admin.getByText('This field is required').first()).toBeVisible();

  const email = `new.${Date.now()}@example.com`;
  await admin.getByLabel('Name', { exact: true }).fill('Nina New');
  await admin.getByLabel('Email', { exact: true }).fill(email);
  await admin.getByLabel('Password', { exact: true }).fill('nina password 1');
  await admin.getByRole('button', { name: 'Add staff' }).click();
  await expect(admin.getByText('Staff Added Successfully')).toBeVisible();
  await expect(admin).toHaveURL(/\/staffs$/);
  await expect(admin.getByRole('cell', { name: email })).toBeVisible();

  // The same email again: the server's field error appears on the field.
  await admin.goto('/add-staff');
  await admin.getByLabel('Name', { exact: true }).fill('Nina Again');
  await admin.getByLabel('Email', { exact: true }).fill(email);
  await admin.getByLabel('Password', { exact: true }).fill('nina password 1');
  await admin.getByRole('button', { name: 'Add staff' }).click();
  await expect(admin.locator('#field-email-helper-text')).toHaveText('An account with this email already exists');
  await adminContext.close();

  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  await staff.goto('/login');
  await signInThroughUi(staff, email, 'nina password 1');
  await expect(staff).toHaveURL(/\/dashboard$/);
  await expect(staff.getByRole('link', { name: 'Staffs' })).toHaveCount(0);
  await staff.goto('/staffs');
  await expect(staff).toHaveURL(/\/not-authorized$/);
  await expect(staff).toHaveTitle('Not Authorized');
  await staffContext.close();
});

test.describe('the staff table', () => {
  test.use({ storageState: ADMIN_STATE });

  test('page, size, sort and search survive Back and reload', async ({ page }) => {
    // The test's own six people, found by their stamp: other tests add and change staff at the same time, so
    // the whole list's second page is not the same from one moment to the next.
    const stamp = `tp${Date.now().toString(36)}`;
    for (let i = 0; i < 6; i++) await createStaff(page.request, { name: `Table ${stamp} ${i}` });
    await page.goto(`/staffs?q=${stamp}`);
    await expect(page.locator('tbody tr')).toHaveCount(6);
    await page.getByRole('combobox', { name: 'Rows per page' }).click();
    await page.getByRole('option', { name: '5', exact: true }).click();
    await expect(page).toHaveURL(/size=5/);
    await page.getByRole('button', { name: 'Go to the next page' }).click();
    await expect(page).toHaveURL(/page=2/);
    await page.getByRole('button', { name: 'Email' }).click();
    await expect(page).toHaveURL(/sort=email/);
    await expect(page).not.toHaveURL(/page=2/);
    await page.getByRole('button', { name: 'Go to the next page' }).click();
    await expect(page).toHaveURL(/sort=email.*page=2|page=2.*sort=email/);
    await expect(page.getByText(/^6–6 of 6$/)).toBeVisible();
    await expect(page.locator('table')).toHaveAttribute('aria-busy', 'false');
    const rowsOnPage2 = await page.locator('tbody tr').allTextContents();
    expect(rowsOnPage2).toHaveLength(1);

    await page.getByTestId('table-search').fill(`Table ${stamp} 1`);
    await expect(page).toHaveURL(/q=Table\+/);
    await expect(page.locator('tbody tr')).toHaveCount(1);
    await expect(page.locator('tbody tr')).toContainText(`Table ${stamp} 1`);

    await page.goBack();
    await expect(page).toHaveURL(/page=2/);
    await expect(page).toHaveURL(new RegExp(`q=${stamp}(&|$)`));
    await expect(page.getByTestId('table-search')).toHaveValue(stamp);
    await expect(page.locator('tbody tr')).toHaveText(rowsOnPage2);

    await page.reload();
    await expect(page.locator('tbody tr')).toHaveText(rowsOnPage2);
    await expect(page.getByRole('combobox', { name: 'Rows per page' })).toHaveText('5');

    await page.getByRole('combobox', { name: 'Rows per page' }).click();
    await page.getByRole('option', { name: 'All' }).click();
    await expect(page).toHaveURL(/size=all/);
    await expect(page.locator('tbody tr')).toHaveCount(6);
  });
});

test.describe('the staff list on a phone', () => {
  test.use({ storageState: ADMIN_STATE, viewport: { width: 390, height: 844 } });

  test('each member is a card with role, status and the actions menu on screen; nothing scrolls sideways', async ({ page }) => {
    const member = await createStaff(page.request, { name: `Phone Person ${Date.now().toString(36)}` });
    await page.goto(`/staffs?q=${encodeURIComponent(member.email)}`);
    const card = page.getByTestId('row-card').filter({ hasText: member.email });
    await expect(card).toHaveCount(1);
    await expect(page.locator('table')).toHaveCount(0);
    await expect(card.getByText(member.name)).toBeVisible();
    await expect(card.getByText('Staff', { exact: true })).toBeVisible();
    await expect(card.getByText('Active', { exact: true })).toBeVisible();
    const menu = card.getByRole('button', { name: `Actions for ${member.name}` });
    await expect(menu).toBeVisible();
    const box = await menu.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    const { scroll, client } = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    expect(scroll).toBeLessThanOrEqual(client);
    await menu.click();
    await expect(page.getByRole('menuitem', { name: 'Change role' })).toBeVisible();
  });
});
