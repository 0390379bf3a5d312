/**
 * What the public page draws with MUI and react-i18next after a visitor has acted (step 2, its outcome and
 * the preview, a verification's answer) sits in this provider, loaded with those lazy chunks, never with
 * the first load (docs/decisions/0026-public-page-without-mui.md): a theme built from the visitor's look
 * (no CssBaseline: public.css styles the page) and an i18next instance holding the page's own strings,
 * following the page's language.
 */
import { ThemeProvider } from '@mui/material/styles';
import { createInstance, type i18n as I18n } from 'i18next';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { LANGUAGES } from '../../../../shared/i18n/languages';
import { createAppTheme } from '../../../lib/theme';
import { publicStrings, useT } from '../lib/public-i18n';
import { useLook } from '../lib/public-look';

function resources() {
  return Object.fromEntries(LANGUAGES.flatMap((l) => (publicStrings(l) ? [[l, { translation: publicStrings(l)! }]] : [])));
}

function createI18n(language: string): I18n {
  const i18n = createInstance();
  void i18n.use(initReactI18next).init({
    showSupportNotice: false,
    resources: resources(),
    lng: language,
    fallbackLng: 'en',
    supportedLngs: [...LANGUAGES],
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  return i18n;
}

export function MuiIsland({ children }: { children: ReactNode }) {
  const { language } = useT();
  const look = useLook();
  const [i18n] = useState(() => createI18n(language));
  useEffect(() => {
    const strings = publicStrings(language);
    if (strings && !i18n.hasResourceBundle(language, 'translation')) i18n.addResourceBundle(language, 'translation', strings, true, true);
    if (i18n.language !== language) void i18n.changeLanguage(language);
  }, [i18n, language]);
  const theme = useMemo(() => createAppTheme(look.mode, look.skin), [look.mode, look.skin]);
  return (
    <I18nextProvider i18n={i18n}>
      <ThemeProvider theme={theme}>{children}</ThemeProvider>
    </I18nextProvider>
  );
}
