/** Steps of the machine-data end-to-end tests: texts from the catalogue, an admin browser, benches, batches, CSV rows, screenshots with axe. */
import path from 'node:path';
import { expect, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { ADMIN_STATE, createStaff, signInByApi } from './helpers';
import { screenshotter, translator } from './screen-kit';

export const OUT = path.join('e2e', 'artifacts', 'machine-data');
export const MONTH = '2025-03';

export type Language = 'en' | 'zh';
/** A text of the catalogue (`app.delete`, `machineScreens.…`) in `lang`, as the screens show it. */
export const translate = translator(['machineScreens', 'app']);
export const tr = (lang: Language, key: string, params?: Record<string, unknown>) => translate(lang, `machineScreens.${key}`, params);

/** A second admin signed in in a fresh context, in `lang` (the first admin's language is left alone). */
export async function adminBrowser(browser: Browser, baseURL: string, lang: Language, viewport = { width: 1440, height: 900 }) {
  const first = await browser.newContext({ storageState: ADMIN_STATE });
  const member = await createStaff(first.request, { role: 'admin' });
  await first.close();
  const context = await browser.newContext({ viewport });
  const host = new URL(baseURL).hostname;
  await context.addCookies([{ name: 'test-report-center-language', value: lang, domain: host, path: '/' }]);
  await signInByApi(context.request, member.email, member.password);
  const res = await context.request.patch('/api/v1/auth/me', { data: { language: lang } });
  expect(res.ok(), await res.text()).toBe(true);
  return { context, page: await context.newPage() };
}

/** A pressure test curve: ramp to the test pressure in 20 s, hold with a slight drop, vent. */
export function curve(n: number, testPressure: number, holding: number) {
  const end = 20 + holding + 10;
  return Array.from({ length: n }, (_, i) => {
    const t = Math.round((i / (n - 1)) * end * 1000) / 1000;
    const p =
      t < 20
        ? (testPressure * t) / 20
        : t < 20 + holding
          ? testPressure - (t - 20) * 0.0005
          : Math.max(0, testPressure * (1 - (t - 20 - holding) / 10));
    return { t, p: Math.round(p * 1000) / 1000 };
  });
}

/**
 * What a bench states of a test in which it saw no leakage: 0, in the unit it counts or measures. Zero is an
 * observation; a record without a leakage value says that none was recorded, which a requirement limited to a
 * count or a volume (drops/min, bubbles/min, mm³/s) holds nonconforming as 'leakage not recorded'.
 */
export function noLeakageSeen(unit: 'drops/min' | 'bubbles/min' | 'mL/min'): { leakageValue: number; leakageUnit: string } {
  return { leakageValue: 0, leakageUnit: unit };
}

export interface Batch {
  prefix: string;
  product: { id: string; name: string };
  unmatched: string;
}

export function records(b: Batch) {
  const base = { medium: 'water', holdingSeconds: 60, leakageValue: null, leakageUnit: null, operator: 'Lin' };
  return [
    {
      ...base,
      recordId: `${b.prefix}R1`,
      serial: `${b.prefix}000001`,
      testType: 'shell',
      testPressure: 2.4,
      result: 'pass',
      testedAt: `${MONTH}-03T08:00:00Z`,
      samples: curve(10_000, 2.4, 60),
    },
    {
      ...base,
      recordId: `${b.prefix}R2`,
      serial: `${b.prefix}000001`,
      testType: 'seat',
      testPressure: 1.76,
      result: 'fail',
      testedAt: `${MONTH}-03T08:05:00Z`,
      leakageValue: 12.5,
      leakageUnit: 'mL/min',
      samples: curve(400, 1.76, 60),
    },
    {
      ...base,
      recordId: `${b.prefix}R3`,
      serial: ` ${b.prefix.toLowerCase()}000001`,
      testType: 'seat',
      testPressure: 1.76,
      result: 'pass',
      testedAt: `${MONTH}-04T09:30:00Z`,
      operator: '陳',
      ...noLeakageSeen('drops/min'),
    },
    {
      ...base,
      recordId: `${b.prefix}R4`,
      serial: `${b.prefix}000050`,
      testType: 'air-seat',
      medium: 'air',
      testPressure: 0.6,
      result: 'pass',
      testedAt: `${MONTH}-10T10:00:00Z`,
      ...noLeakageSeen('bubbles/min'),
    },
    {
      ...base,
      recordId: `${b.prefix}R5`,
      serial: b.unmatched,
      testType: 'shell',
      testPressure: 2.4,
      result: 'fail',
      testedAt: `${MONTH}-12T11:00:00Z`,
    },
  ];
}

export async function postBatch(request: APIRequestContext, key: string, body: unknown) {
  return request.post('/api/v1/machine-data', { headers: { authorization: `Bearer ${key}` }, data: body });
}

export const CSV_HEADER = 'recordId,serial,testType,medium,testPressure,holdingSeconds,leakageValue,leakageUnit,result,testedAt,operator';

/** Two good CSV rows of a series: a quoted comma, Chinese text, a time zone offset. */
export function csvRows(series: string): string[] {
  return [
    `${series}C1,${series}000001,shell,water,2.4,60,,,pass,${MONTH}-20T08:00:00Z,"Chen, Mei"`,
    `${series}C2,${series}000002,seat,water,1.76,30,0.5,mL/min,fail,${MONTH}-20T08:10:00+08:00,陳小明`,
  ];
}

export async function countSeries(request: APIRequestContext, series: string): Promise<number> {
  const res = await request.get(`/api/v1/machine-data?q=${encodeURIComponent(series)}`);
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { data: { total: number } }).data.total;
}

export const shot = screenshotter(OUT);

/** Creates a bench on the Benches screen and returns the key the dialog shows (once). */
export async function createBench(page: Page, lang: Language, name: string): Promise<string> {
  await page.getByRole('button', { name: tr(lang, 'benches.add') }).click();
  const form = page.getByRole('dialog');
  await form.getByLabel(tr(lang, 'benches.name')).fill(name);
  await form.getByRole('button', { name: tr(lang, 'benches.createKey') }).click();
  const dialog = page.getByRole('dialog', { name: tr(lang, 'key.title', { name }) });
  await expect(dialog.getByText(tr(lang, 'key.warning'))).toBeVisible();
  const key = await dialog.getByTestId('machine-key').inputValue();
  expect(key).toMatch(/^trc_live_[A-Za-z0-9_-]{43}$/);
  return key;
}
