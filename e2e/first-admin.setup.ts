/** First run: /register creates the first administrator; afterwards it explains that admins make accounts. */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ADMIN, ADMIN_STATE } from './helpers';

test('register the first admin, then registration is closed', async ({ page, browser }) => {
  await page.goto('/login');
  await page.getByRole('link', { name: 'Create the administrator account' }).click();
  await expect(page).toHaveURL(/\/register$/);
  await expect(page).toHaveTitle('Register');

  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('This field is required')).toHaveCount(3);
  await page.getByLabel('Email', { exact: true }).fill('not-an-email');
  await expect(page.getByText('The Email field must be a valid email')).toBeVisible();

  await page.getByLabel('Name', { exact: true }).fill(ADMIN.name);
  await page.getByLabel('Email', { exact: true }).fill(ADMIN.email);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();

  fs.mkdirSync(path.dirname(ADMIN_STATE), { recursive: true });
  await page.context().storageState({ path: ADMIN_STATE });

  const visitor = await browser.newContext();
  const other = await visitor.newPage();
  await other.goto('/register');
  await expect(other.getByText('Accounts are created by an administrator')).toBeVisible();
  await visitor.close();
});
