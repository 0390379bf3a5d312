/** The MUI theme: primary red, light or dark, and the "bordered" skin (flat cards with a border). */
import { createTheme, type Theme } from '@mui/material/styles';
import { APP_BAR_HEIGHT, BREAKPOINTS, PHONE_LANDSCAPE } from '../../shared/layout-sizes';
import type { Preferences } from '../../shared/preferences';

export const PRIMARY_RED = { light: '#c62828', dark: '#ef9a9a' } as const;

export function createAppTheme(mode: 'light' | 'dark', skin: Preferences['skin']): Theme {
  const bordered = skin === 'bordered';
  return createTheme({
    breakpoints: { values: { xs: BREAKPOINTS.xs, sm: BREAKPOINTS.sm, md: BREAKPOINTS.md, lg: BREAKPOINTS.lg, xl: BREAKPOINTS.xl } },
    // MUI's own heights, written here so that the server's frame and the notices read the same numbers.
    mixins: {
      toolbar: {
        minHeight: APP_BAR_HEIGHT.phone,
        [`@media ${PHONE_LANDSCAPE}`]: { minHeight: APP_BAR_HEIGHT.phoneLandscape },
        [`@media (min-width:${BREAKPOINTS.sm}px)`]: { minHeight: APP_BAR_HEIGHT.wide },
      },
    },
    palette: {
      mode,
      // Both shades keep 4.5:1 against their button text and the page background.
      primary:
        mode === 'light' ? { main: PRIMARY_RED.light, contrastText: '#fff' } : { main: PRIMARY_RED.dark, contrastText: 'rgba(0,0,0,0.87)' },
      ...(mode === 'light'
        ? { background: { default: '#f5f5f7', paper: '#fff' } }
        : { background: { default: '#121212', paper: '#1e1e1e' } }),
    },
    shape: { borderRadius: 8 },
    typography: {
      fontFamily: '"Roboto", "Noto Sans TC", "Helvetica", "Arial", sans-serif',
      button: { textTransform: 'none', fontWeight: 500 },
    },
    components: {
      MuiPaper: {
        defaultProps: bordered ? { elevation: 0 } : {},
        styleOverrides: bordered
          ? { root: ({ theme }) => ({ border: `1px solid ${theme.palette.divider}`, backgroundImage: 'none' }) }
          : {},
      },
      MuiCard: { defaultProps: bordered ? { elevation: 0 } : { elevation: 2 } },
      MuiAppBar: { styleOverrides: { root: { backgroundImage: 'none' } } },
      MuiButton: { defaultProps: { disableElevation: bordered } },
    },
  });
}

/** A dark theme for the semi-dark vertical navigation in light mode. */
export function createSemiDarkTheme(base: Theme): Theme {
  return createTheme(base, {
    palette: {
      mode: 'dark',
      primary: { main: PRIMARY_RED.light, dark: '#b71c1c', contrastText: '#fff' },
      background: { default: '#1e1e2d', paper: '#1e1e2d' },
      text: { primary: '#fff', secondary: 'rgba(255,255,255,0.7)' },
      divider: 'rgba(255,255,255,0.12)',
      action: { hover: 'rgba(255,255,255,0.08)', selected: 'rgba(255,255,255,0.16)', active: '#fff' },
    },
  });
}
