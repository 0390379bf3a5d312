/** Preferences and the MUI theme: what both the staff app and the public page need. */
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useEffect, useMemo, type ReactNode } from 'react';
import { PreferencesProvider, usePreferences } from '../lib/preferences';
import { createAppTheme } from '../lib/theme';

/** "system" follows the operating system live. */
export function useThemeMode(): 'light' | 'dark' {
  const { preferences } = usePreferences();
  const prefersDark = useMediaQuery('(prefers-color-scheme: dark)', { noSsr: true });
  return preferences.theme === 'system' ? (prefersDark ? 'dark' : 'light') : preferences.theme;
}

function ThemeBridge({ children }: { children: ReactNode }) {
  const { preferences } = usePreferences();
  const mode = useThemeMode();
  const theme = useMemo(() => createAppTheme(mode, preferences.skin), [mode, preferences.skin]);
  useEffect(() => {
    document.documentElement.style.colorScheme = mode;
  }, [mode]);
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline enableColorScheme />
      {children}
    </ThemeProvider>
  );
}

export function ThemeProviders({ children }: { children: ReactNode }) {
  return (
    <PreferencesProvider>
      <ThemeBridge>{children}</ThemeBridge>
    </PreferencesProvider>
  );
}
