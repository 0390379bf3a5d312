/**
 * A bench's instruments, web side: an admin opens Instruments from the bench's menu, adds a gauge (a due date
 * before the calibration is refused under its field, in the page's language), sees it in calibration, adds a
 * recalibration and sees the earlier calibration kept; an overdue gauge shows as overdue. English at 1440 px
 * and Chinese at 390 px (E2E_EVERY_LOOK: both at both), with screenshots and an axe check.
 */
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { stamp } from './catalogue-helpers';
import { adminBrowser, OUT, shot, tr } from './machine-data-helpers';
import { translator } from './screen-kit';
import { widthsFor } from './looks';

const translate = translator(['machineScreens', 'machineData', 'app']);
const today = new Date();
const day = (offsetDays: number) => new Date(today.getTime() + offsetDays * 86_400_000).toISOString().slice(0, 10);

for (const lang of ['en', 'zh'] as const) {
  for (const width of widthsFor(lang, 1440)) {
    test(`instruments of a bench: ${lang} ${width}`, async ({ browser, baseURL }) => {
      fs.mkdirSync(OUT, { recursive: true });
      const viewport = { width, height: width < 600 ? 844 : 900 };
      const { context, page } = await adminBrowser(browser, baseURL!, lang, viewport);
      const name = `${lang === 'zh' ? '測試台' : 'Bench'} ${stamp()}`;
      const created = await context.request.post('/api/v1/machines', { data: { name } });
      expect(created.status(), await created.text()).toBe(201);
      const benchId = (await created.json()).data.machine.id as string;
      // An overdue transducer, entered through the API: the screen colours it.
      const overdue = await context.request.post(`/api/v1/machines/${benchId}/instruments`, {
        data: {
          instrumentId: 'PT-07',
          kind: 'transducer',
          rangeMax: 40,
          accuracy: 0.25,
          calibrationCertificate: 'CAL-OLD-1',
          calibratedOn: day(-400),
          dueOn: day(-35),
        },
      });
      expect(overdue.status(), await overdue.text()).toBe(201);

      await page.goto(`/machines?q=${encodeURIComponent(name)}`);
      await page.getByRole('button', { name: tr(lang, 'benches.actionsFor', { name }) }).click();
      await page.getByRole('menuitem', { name: tr(lang, 'instruments.menu') }).click();
      const dialog = page.getByRole('dialog', { name: tr(lang, 'instruments.title', { name }) });
      await expect(dialog.getByTestId('instrument')).toHaveCount(1);
      await expect(dialog.getByTestId('instrument-due')).toHaveText(tr(lang, 'instruments.due.overdue'));

      await dialog.getByRole('button', { name: tr(lang, 'instruments.add') }).click();
      const form = dialog.getByTestId('instrument-form');
      await form.getByLabel(tr(lang, 'instruments.fields.instrumentId')).fill('PG-01');
      await form.getByLabel(tr(lang, 'instruments.fields.rangeMax')).fill('10');
      await form.getByLabel(tr(lang, 'instruments.fields.accuracy')).fill('0.5');
      await form.getByLabel(tr(lang, 'instruments.fields.calibrationCertificate')).fill('CAL-2026-017');
      await form.getByLabel(tr(lang, 'instruments.fields.calibratedOn')).fill(day(-10));
      await form.getByLabel(tr(lang, 'instruments.fields.dueOn')).fill(day(-20));
      await form.getByRole('button', { name: translate(lang, 'app.save') }).click();
      await expect(form.getByText(translate(lang, 'machineData.validation.dueBeforeCalibrated'))).toBeVisible();
      await shot(page, 'instruments-form', lang);

      await form.getByLabel(tr(lang, 'instruments.fields.dueOn')).fill(day(170));
      await form.getByRole('button', { name: translate(lang, 'app.save') }).click();
      await expect(dialog.getByTestId('instrument')).toHaveCount(2);
      const gauge = dialog.getByRole('region', { name: 'PG-01' });
      await expect(gauge.getByTestId('instrument-due')).toHaveText(tr(lang, 'instruments.due.current'));
      await expect(gauge).toContainText('CAL-2026-017');

      await gauge.getByRole('button', { name: tr(lang, 'instruments.recalibrateFor', { id: 'PG-01' }) }).click();
      await gauge.getByLabel(tr(lang, 'instruments.fields.calibrationCertificate')).fill('CAL-2026-099');
      await gauge.getByLabel(tr(lang, 'instruments.fields.calibratedOn')).fill(day(-1));
      await gauge.getByLabel(tr(lang, 'instruments.fields.dueOn')).fill(day(20));
      await gauge.getByRole('button', { name: translate(lang, 'app.save') }).click();
      await expect(gauge.getByTestId('instrument-due')).toHaveText(tr(lang, 'instruments.due.due-soon'));
      await expect(gauge.getByTestId('instrument-earlier')).toContainText('CAL-2026-017');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await shot(page, 'instruments', lang);
      await context.close();
    });
  }
}
