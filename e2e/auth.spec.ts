/** Signing in and out, wrong passwords, and forgot + reset password through the real mail outbox. */
import { expect, test } from '@playwright/test';
import { ADMIN, ADMIN_STATE, createStaff, signInThroughUi, waitForEmail } from './helpers';

test('sign in and sign out', async ({ page }) => {
  await page.goto('/login');
  await expect(page).toHaveTitle('Login');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByText('This field is required')).toHaveCount(2);

  await signInThroughUi(page, ADMIN.email, 'wrong password');
  await expect(page.getByRole('alert').filter({ hasText: 'Email or Password is Wrong' })).toBeVisible();

  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('Login Successfully')).toBeVisible();

  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login\?to=%2Fdashboard$/);
});

test('forgot and reset password through the outbox', async ({ page, browser }) => {
  const admin = await browser.newContext({ storageState: ADMIN_STATE });
  const member = await createStaff(admin.request);
  await admin.close();

  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot Password?' }).click();
  await expect(page).toHaveTitle('Forgot Password');
  await page.getByLabel('Email', { exact: true }).fill(member.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Sent in email change password link successfully' })).toBeVisible();

  const mail = await waitForEmail(member.email);
  const link = /https?:\/\/\S+\/reset-password#token=[\w%-]+/.exec(mail.text)?.[0];
  expect(link, mail.text).toBeTruthy();
  await page.goto(new URL(link!).pathname + new URL(link!).hash);
  await expect(page).toHaveTitle('Reset Password');
  // The token leaves the address bar (and the history) once the page has read it.
  await expect(page).toHaveURL(/\/reset-password$/);
  await page.getByLabel('New password', { exact: true }).fill('a brand new password');
  await page.getByLabel('Confirm password', { exact: true }).fill('a different one');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('The passwords do not match')).toBeVisible();
  await page.getByLabel('Confirm password', { exact: true }).fill('a brand new password');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page).toHaveURL(/\/login$/);

  await signInThroughUi(page, member.email, 'a brand new password');
  await expect(page).toHaveURL(/\/dashboard$/);
});
