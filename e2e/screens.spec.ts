/**
 * The screens (those of SCREENS below) in light and dark, English and Chinese, at 1440 and 390 px: a screenshot under
 * e2e/artifacts/screens/ and an axe-core check (no serious or critical violations).
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN_STATE } from './helpers';
import { expectAxeClean, untilSettled } from './screen-kit';
import { TIME_SCALE } from './time-scale';
import { langThemes } from './looks';
import { keepScreenshot, SCREENSHOTS_KEPT } from './shots';

interface Screen {
  name: string;
  path: string;
  signedIn: boolean;
  /** something to do before the screenshot (open a panel, submit an empty form) */
  act?: (page: Page) => Promise<void>;
}

/**
 * Every screen no other spec looks at in each language and theme. Left out because a spec of their own takes
 * them in all four rows of language × width × theme, with data on them: `/login` (login-page.spec.ts), and
 * the products and serial-number lists, forms and a missing record's page (catalogue.spec.ts, "screenshots
 * and axe").
 */
const SCREENS: Screen[] = [
  { name: 'login-errors', path: '/login', signedIn: false, act: async (p) => p.locator('form button[type=submit]').click() },
  { name: 'register-closed', path: '/register', signedIn: false },
  { name: 'forgot-password', path: '/forgot-password', signedIn: false },
  { name: 'reset-password', path: '/reset-password?token=example', signedIn: false },
  { name: 'search', path: '/search', signedIn: false },
  { name: 'not-authorized', path: '/not-authorized', signedIn: false },
  { name: 'not-found', path: '/no-such-page', signedIn: false },
  { name: 'dashboard', path: '/dashboard', signedIn: true },
  { name: 'machine-data', path: '/machine-data', signedIn: true },
  { name: 'searches', path: '/searches', signedIn: true },
  { name: 'staffs', path: '/staffs', signedIn: true },
  { name: 'add-staff', path: '/add-staff', signedIn: true },
  { name: 'add-staff-errors', path: '/add-staff', signedIn: true, act: async (p) => p.locator('form button[type=submit]').click() },
  { name: 'access-control', path: '/access-control', signedIn: true },
  { name: 'account-profile', path: '/account-settings/profile', signedIn: true },
  { name: 'account-account', path: '/account-settings/account', signedIn: true },
  { name: 'customizer', path: '/dashboard', signedIn: true, act: async (p) => p.getByTestId('open-customizer').click() },
  // Last: it changes this context's preferences (each test starts again from the stored state).
  {
    name: 'staffs-horizontal-bordered',
    path: '/staffs',
    signedIn: true,
    act: async (p) => {
      await p.getByTestId('open-customizer').click();
      await p.getByTestId('pref-layout-horizontal').click();
      await p.getByTestId('pref-skin-bordered').click();
      await p.getByTestId('pref-contentWidth-wide').click();
      await p.keyboard.press('Escape');
      await expect(p.getByRole('dialog')).toHaveCount(0);
    },
  },
];

const OUT = path.join('e2e', 'artifacts', 'screens');
const WIDTHS = [1440, 390] as const;

for (const signedIn of [false, true]) {
  test.describe(signedIn ? 'staff screens' : 'public screens', () => {
    if (signedIn) test.use({ storageState: ADMIN_STATE });

    for (const [lang, theme] of langThemes()) {
      test(`${lang} ${theme}`, async ({ page, baseURL }) => {
        test.setTimeout(300_000 * TIME_SCALE);
        fs.mkdirSync(OUT, { recursive: true });
        const host = new URL(baseURL!).hostname;
        await page.context().addCookies(
          [
            ['language', lang],
            ['theme', theme],
          ].map(([k, v]) => ({ name: `test-report-center-${k}`, value: v!, domain: host, path: '/' })),
        );
        if (signedIn) {
          // The account's language and preferences win over the browser's: set them there.
          const res = await page.request.patch('/api/v1/auth/me', { data: { language: lang, preferences: { theme } } });
          expect(res.ok(), await res.text()).toBe(true);
        }
        for (const screen of SCREENS.filter((s) => s.signedIn === signedIn)) {
          // One load per screen, then the phone width by resizing the same page, as a window narrowed or a
          // phone turned would: a load costs this machine about a CPU-second (the app starting), a resize
          // little, and the layout follows the width either way (media queries and MUI's breakpoints).
          await page.setViewportSize({ width: WIDTHS[0], height: 900 });
          await page.goto(screen.path);
          await expect(page.locator('h1').first()).toBeVisible();
          await expect(page.locator('html')).toHaveAttribute('lang', lang === 'zh' ? 'zh-Hant' : 'en');
          if (screen.act) await screen.act(page);
          for (const width of WIDTHS) {
            await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
            await expect(page.locator('h1').first()).toBeVisible();
            const axe = width === 1440 || screen.name === 'dashboard';
            // Settled for a screenshot or the axe check; a width with neither (CI keeps no screenshots) needs no wait.
            if (!axe && !SCREENSHOTS_KEPT) continue;
            await untilSettled(page);
            await keepScreenshot(page, { path: path.join(OUT, `${screen.name}-${lang}-${theme}-${width}.png`), fullPage: true });
            if (axe) await expectAxeClean(page, `${screen.name} ${lang} ${theme} ${width}`);
          }
        }
      });
    }
  });
}
