/** The interface preferences of docs/product.md §8: their values, defaults and the rules between them. The
 * browser keeps them in storage and in cookies, which the server reads to draw the staff page's frame
 * (src/server/web/staff-shell.ts). */

/** Prefix of every browser-storage key and cookie of the app (the original prefixed them with its title). */
export const STORAGE_PREFIX = 'test-report-center';

/** The cookie and localStorage key of something the browser keeps for the app. */
export const storageKey = (name: string) => `${STORAGE_PREFIX}-${name}`;
/** The cookie (and localStorage key) holding one preference. */
export const preferenceCookie = (key: keyof Preferences) => storageKey(key);
export const PREFERENCE_VALUES = {
  theme: ['light', 'dark', 'system'],
  skin: ['default', 'bordered'],
  layout: ['vertical', 'horizontal'],
  navbarType: ['sticky', 'static', 'hidden'],
  footerType: ['sticky', 'static', 'hidden'],
  contentWidth: ['boxed', 'wide'],
} as const;

export interface Preferences {
  theme: (typeof PREFERENCE_VALUES.theme)[number];
  skin: (typeof PREFERENCE_VALUES.skin)[number];
  layout: (typeof PREFERENCE_VALUES.layout)[number];
  navbarType: (typeof PREFERENCE_VALUES.navbarType)[number];
  navbarBlur: boolean;
  footerType: (typeof PREFERENCE_VALUES.footerType)[number];
  contentWidth: (typeof PREFERENCE_VALUES.contentWidth)[number];
  verticalNavCollapsed: boolean;
  semiDark: boolean;
}

export const DEFAULT_PREFERENCES: Preferences = {
  theme: 'light',
  skin: 'default',
  layout: 'vertical',
  navbarType: 'sticky',
  navbarBlur: true,
  footerType: 'static',
  contentWidth: 'boxed',
  verticalNavCollapsed: false,
  semiDark: true,
};

export const PREFERENCE_KEYS = Object.keys(DEFAULT_PREFERENCES) as (keyof Preferences)[];

/** A value read from storage or the account, or undefined when it is not one this app knows. */
export function parsePreference<K extends keyof Preferences>(key: K, raw: unknown): Preferences[K] | undefined {
  const def = DEFAULT_PREFERENCES[key];
  if (typeof def === 'boolean') {
    if (raw === true || raw === 'true') return true as Preferences[K];
    if (raw === false || raw === 'false') return false as Preferences[K];
    return undefined;
  }
  const allowed = PREFERENCE_VALUES[key as keyof typeof PREFERENCE_VALUES] as readonly unknown[];
  return allowed.includes(raw) ? (raw as Preferences[K]) : undefined;
}

/** Known preferences out of any record (storage or the account), the rest left at `base`. */
export function mergePreferences(base: Preferences, source: Record<string, unknown>): Preferences {
  const next = { ...base };
  for (const key of PREFERENCE_KEYS) {
    const v = parsePreference(key, source[key]);
    if (v !== undefined) (next as Record<string, unknown>)[key] = v;
  }
  return next;
}

/** Applies one change with the original's rule: switching to horizontal makes a hidden navbar sticky and un-collapses the vertical nav. */
export function applyPreference<K extends keyof Preferences>(prefs: Preferences, key: K, value: Preferences[K]): Preferences {
  const next = { ...prefs, [key]: value };
  if (key === 'layout' && value === 'horizontal') {
    if (next.navbarType === 'hidden') next.navbarType = 'sticky';
    next.verticalNavCollapsed = false;
  }
  return next;
}
