/** Steps of the catalogue end-to-end tests: a signed-in staff browser in a language and theme, records made by API. */
import { expect, type APIRequestContext, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { ADMIN_STATE, createStaff, signInByApi } from './helpers';

export type Lang = 'en' | 'zh';
export type Theme = 'light' | 'dark';

let counter = 0;
/** A short unique suffix: names must be unique in one database that every test shares. */
export function stamp(): string {
  counter += 1;
  return `${Date.now().toString(36).slice(-5)}${counter}`;
}

/** A new staff member signed in in a fresh browser context, with the account's language and theme set. */
export async function staffBrowser(
  browser: Browser,
  opts: { lang?: Lang; theme?: Theme; baseURL: string; viewport?: { width: number; height: number } },
): Promise<{ context: BrowserContext; page: Page }> {
  const admin = await browser.newContext({ storageState: ADMIN_STATE });
  const member = await createStaff(admin.request);
  await admin.close();
  const context = await browser.newContext({ viewport: opts.viewport ?? { width: 1440, height: 900 } });
  const host = new URL(opts.baseURL).hostname;
  const lang = opts.lang ?? 'en';
  const theme = opts.theme ?? 'light';
  await context.addCookies(
    [
      ['language', lang],
      ['theme', theme],
    ].map(([k, v]) => ({ name: `test-report-center-${k}`, value: v!, domain: host, path: '/' })),
  );
  await signInByApi(context.request, member.email, member.password);
  const res = await context.request.patch('/api/v1/auth/me', { data: { language: lang, preferences: { theme } } });
  expect(res.ok(), await res.text()).toBe(true);
  return { context, page: await context.newPage() };
}

export interface ProductBody {
  name: string;
  fluid?: string;
  connection?: string;
  application?: string;
  applicationMedium?: string;
  pressureFc?: number | null;
  pressureWcb?: number | null;
  pressureSus?: number | null;
  temperatureMax?: number;
  temperatureMin?: number;
  valveType?: string;
  nominalSize?: number;
  pressureClass?: string;
  seatType?: string;
  testStandard?: string;
  leakageRate?: string;
}

export async function createProduct(request: APIRequestContext, body: ProductBody): Promise<{ id: string; name: string }> {
  const res = await request.post('/api/v1/products', {
    data: {
      fluid: 'water',
      connection: 'Flange',
      application: 'Waterworks',
      applicationMedium: 'Water',
      pressureFc: 1.6,
      temperatureMax: 120,
      temperatureMin: -10,
      ...body,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { data: { id: string; name: string } }).data;
}

export async function createRange(
  request: APIRequestContext,
  body: { productId: string; startSerial: string; endSerial: string; totalUnits: number; productionDate?: string; bodyMaterial?: string },
): Promise<{ id: string }> {
  const res = await request.post('/api/v1/serial-ranges', { data: { productionDate: '2024-05-01', ...body } });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { data: { id: string } }).data;
}

export async function countProducts(request: APIRequestContext, q: string): Promise<number> {
  const res = await request.get(`/api/v1/products?q=${encodeURIComponent(q)}`);
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { data: { total: number } }).data.total;
}

/** Picks `name` in the searchable product select labelled `label`. */
export async function pickProduct(page: Page, label: string, name: string): Promise<void> {
  const box = page.getByRole('combobox', { name: label });
  await box.click();
  await box.fill(name);
  await page.getByRole('option', { name, exact: true }).click();
  await expect(box).toHaveValue(name);
}
