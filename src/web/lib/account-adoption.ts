/**
 * What a browser takes from the account that signs in on it: the account's language, and its stored
 * preferences the first time this browser sees that user (afterwards this browser's own, newer choices stay).
 * Both go into browser storage, whose cookies the server reads to draw a staff page's frame
 * (src/server/web/app-page.ts). The sign-in page adopts them before it loads the staff app, so the first
 * frame after signing in is already in the account's language and look; the staff app adopts them again as
 * it starts, for a session that began elsewhere.
 */
import { mergePreferences, PREFERENCE_KEYS, DEFAULT_PREFERENCES, type Preferences } from '../../shared/preferences';
import type { Language } from '../../shared/i18n/languages';
import { LANGUAGE_KEY } from './language-start';
import { readStored, writeStored } from './storage';

/** the user whose account preferences this browser has adopted */
const OWNER_KEY = 'preferences-owner';

export function storedPreferences(): Preferences {
  const raw: Record<string, unknown> = {};
  for (const key of PREFERENCE_KEYS) raw[key] = readStored(key);
  return mergePreferences(DEFAULT_PREFERENCES, raw);
}

export function storePreferences(prefs: Preferences): void {
  for (const key of PREFERENCE_KEYS) writeStored(key, String(prefs[key]));
}

/** The account's preferences over this browser's, stored, when this browser first sees the user; else null. */
export function adoptAccountPreferences(userId: string, stored: Record<string, unknown>): Preferences | null {
  if (readStored(OWNER_KEY) === userId) return null;
  writeStored(OWNER_KEY, userId);
  if (Object.keys(stored).length === 0) return null;
  const next = mergePreferences(storedPreferences(), stored);
  storePreferences(next);
  return next;
}

/** The account's language and first-seen preferences, stored before the staff app loads. */
export function adoptAccount(user: { id: string; language: Language; preferences?: Record<string, unknown> | null }): void {
  if (readStored(LANGUAGE_KEY) !== user.language) writeStored(LANGUAGE_KEY, user.language);
  adoptAccountPreferences(user.id, user.preferences ?? {});
}
