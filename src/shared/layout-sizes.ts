/**
 * Sizes of the staff app's layout that the server's drawing of its frame (src/server/web/staff-shell.ts) and
 * the app itself (its theme, the default layout, the notices) read from here, so that the app drawing a screen
 * over the frame moves nothing the frame drew, at any width.
 */

/** The theme's breakpoints (px): below `sm` a phone; from `md` the content's wider padding; from `lg` the navigation's column. */
export const BREAKPOINTS = { xs: 0, sm: 600, md: 960, lg: 1280, xl: 1920, xxl: 2560 } as const;

/** The app bar's height (px), as the theme's toolbar mixin gives it to MUI's Toolbar. */
export const APP_BAR_HEIGHT = {
  /** below `sm` */
  phone: 56,
  /** below `sm`, held sideways */
  phoneLandscape: 48,
  /** from `sm` */
  wide: 64,
} as const;

/** The media query of a phone's window: narrower than `sm`, as MUI's `breakpoints.down('sm')` writes it. */
export const PHONE = `(max-width:${BREAKPOINTS.sm - 0.05}px)`;

/** The media query of a phone held sideways, where the bar is `phoneLandscape` high. */
export const PHONE_LANDSCAPE = `${PHONE} and (orientation:landscape)`;
