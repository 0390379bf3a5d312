/**
 * Small things a first look at the screens finds: the sign-in address field's autofill, the account
 * button's accessible name, a record without samples, the demo's terms of use. The screens are rendered
 * as the prerender renders /login (src/web/prerender/render.tsx), with the app's catalogues.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createInstance, type Resource } from 'i18next';
import { createElement, type ReactElement } from 'react';
import { renderToString } from 'react-dom/server.node';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogues, translate, type Language } from '../src/shared/i18n/index';
import { DEMO_TERMS, setDemoCompany } from '../src/server/demo/company';
import { getSettings } from '../src/server/modules/settings/settings.service';
import { UserMenu } from '../src/web/app/layouts/user-menu';
import { authKeys } from '../src/web/features/auth/api';
import { RecordChartCard } from '../src/web/features/machine-data/components/record-chart-card';
import { renderScreen } from '../src/web/prerender/render';
import { buildTestApp, type TestApp } from './helpers/app';

function render(language: Language, screen: ReactElement, queries = new QueryClient()): string {
  const i18n = createInstance();
  void i18n.use(initReactI18next).init({
    resources: Object.fromEntries(Object.entries(catalogues).map(([l, tree]) => [l, { translation: tree }])) as Resource,
    lng: language,
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  return renderToString(
    createElement(
      I18nextProvider,
      { i18n },
      createElement(QueryClientProvider, { client: queries }, createElement(MemoryRouter, null, screen)),
    ),
  );
}

/** The attributes of the first element matching `selector` (a tag with an id). */
function attributes(html: string, tag: string, id: string): Record<string, string> {
  const element = new RegExp(`<${tag}\\b[^>]*\\bid="${id}"[^>]*>`).exec(html)?.[0] ?? '';
  return Object.fromEntries([...element.matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1]!.toLowerCase(), m[2]!]));
}

describe('the sign-in screen', () => {
  it('offers the address to password managers as the user name, without calling an email field a user name', () => {
    for (const language of ['en', 'zh'] as const) {
      const input = attributes(renderScreen('login', language).html, 'input', 'field-email');
      expect(input.autocomplete).toBe('username');
      expect(input.type).toBe('text');
      expect(input.inputmode).toBe('email');
    }
  });
});

describe('the account menu button', () => {
  it('has an accessible name that contains the initials it shows', () => {
    const queries = new QueryClient();
    queries.setQueryData(authKeys.me(), {
      user: { id: 'u1', name: 'Stella Staff', email: 'stella@example.com', role: 'staff', language: 'en' },
      abilities: [],
    });
    for (const language of ['en', 'zh'] as const) {
      const html = render(language, createElement(UserMenu), queries);
      const label = /<button[^>]*aria-label="([^"]*)"/.exec(html)?.[1];
      expect(html).toContain('>SS<');
      expect(label).toBe(translate(language, 'app.userMenu', { initials: 'SS' }));
      expect(label!.startsWith('SS')).toBe(true);
    }
  });
});

describe('a test record without samples', () => {
  it('says that no samples were sent instead of drawing an empty "0 samples" chart', () => {
    for (const language of ['en', 'zh'] as const) {
      const html = render(language, createElement(RecordChartCard, { record: { samples: [], testPressure: 1.6, holdingSeconds: 60 } }));
      expect(html).toContain(translate(language, 'machineScreens.chart.noSamples'));
      expect(html).not.toContain(translate(language, 'machineScreens.chart.samples', { formatted: '0' }));
      expect(html).not.toContain('<svg');
    }
  });
});

describe('the demo', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('has terms of use of its own in en and zh for the public report page', async () => {
    const before = await getSettings(t.app.ctx.db);
    await setDemoCompany(t.app.ctx.db, { id: null, label: 'demo data' });
    const after = await getSettings(t.app.ctx.db);
    expect(after.termsEn).toBe(DEMO_TERMS.termsEn);
    expect(after.termsZh).toBe(DEMO_TERMS.termsZh);
    expect(after.termsEn).not.toBe(before.termsEn);
    expect(after.termsVersion).toBe(before.termsVersion + 1);
    expect(after.termsEn).toContain('Formosa Flow Valves');
    expect(after.termsZh).toContain('福爾摩沙流體閥門');
    for (const text of [after.termsEn, after.termsZh]) expect(text.length).toBeLessThan(600);
  });
});
