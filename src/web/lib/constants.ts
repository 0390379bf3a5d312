/** Constants of docs/product.md §8 that the shell uses. */
import { BREAKPOINTS } from '../../shared/layout-sizes';

export const APP_TITLE = 'Test Report Center';
export const COOKIE_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;
export const TOAST_AUTO_CLOSE_MS = 3000;
export const SCROLL_TO_TOP_THRESHOLD = 200;
export const HASH_SCROLL_OFFSET = 60;
/** large breakpoint minus one: below it the navigation is always vertical (an overlay drawer) */
export const OVERLAY_NAV_BREAKPOINT = BREAKPOINTS.lg - 1;
export const LOADING_BAR = { start: 10, buffer: 20, tickMs: 800, hold: 82, resetMs: 300 } as const;
export const HORIZONTAL_NAV_POPOVER_OFFSET = 6;
export const LOGO_HEIGHT = 25;
