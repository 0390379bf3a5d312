/**
 * The preferences store: browser storage (localStorage and 30-day cookies under the app prefix) for
 * everyone, and the account (PATCH /auth/me) for a signed-in user, so they follow the user to another browser.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { api, API_BASE } from './api';
import { applyPreference, DEFAULT_PREFERENCES, type Preferences } from '../../shared/preferences';
import { adoptAccountPreferences, storedPreferences as readAll, storePreferences as writeAll } from './account-adoption';

interface PreferencesContextValue {
  preferences: Preferences;
  setPreference: <K extends keyof Preferences>(key: K, value: Preferences[K]) => void;
  reset: () => void;
  /**
   * The account's stored preferences, applied when this browser first sees the user (a sign-in here or
   * another user before); afterwards this browser's own, newer choices stay.
   */
  adoptAccountPreferences: (userId: string, stored: Record<string, unknown>) => void;
  /** whether changes are also saved on the account */
  setSignedIn: (signedIn: boolean) => void;
}

const PreferencesContext = createContext<PreferencesContextValue | null>(null);

const SAVE_DELAY_MS = 400;

export function PreferencesProvider({ children }: { children: ReactNode }) {
  const [preferences, setPreferences] = useState<Preferences>(readAll);
  const signedIn = useRef(false);
  const saveTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  const pending = useRef<Preferences | null>(null);

  const saveToAccount = useCallback((prefs: Preferences) => {
    if (!signedIn.current) return;
    clearTimeout(saveTimer.current);
    pending.current = prefs;
    saveTimer.current = setTimeout(() => {
      pending.current = null;
      void api.patch('/auth/me', { preferences: prefs }).catch(() => {
        // the browser still has them; the account catches up on the next change
      });
    }, SAVE_DELAY_MS);
  }, []);

  // A change made just before reload or closing the tab still reaches the account.
  useEffect(() => {
    const flush = () => {
      if (!pending.current) return;
      clearTimeout(saveTimer.current);
      void fetch(`${API_BASE}/auth/me`, {
        method: 'PATCH',
        keepalive: true,
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ preferences: pending.current }),
      }).catch(() => undefined);
      pending.current = null;
    };
    window.addEventListener('pagehide', flush);
    return () => window.removeEventListener('pagehide', flush);
  }, []);

  const commit = useCallback(
    (next: Preferences, toAccount: boolean) => {
      writeAll(next);
      setPreferences(next);
      if (toAccount) saveToAccount(next);
    },
    [saveToAccount],
  );

  const setPreference = useCallback(
    <K extends keyof Preferences>(key: K, value: Preferences[K]) => {
      setPreferences((prev) => {
        const next = applyPreference(prev, key, value);
        writeAll(next);
        saveToAccount(next);
        return next;
      });
    },
    [saveToAccount],
  );

  const value = useMemo<PreferencesContextValue>(
    () => ({
      preferences,
      setPreference,
      reset: () => commit(DEFAULT_PREFERENCES, true),
      adoptAccountPreferences: (userId, stored) => {
        const adopted = adoptAccountPreferences(userId, stored);
        if (adopted) setPreferences(adopted);
      },
      setSignedIn: (v) => {
        signedIn.current = v;
      },
    }),
    [preferences, setPreference, commit],
  );

  useEffect(() => () => clearTimeout(saveTimer.current), []);

  return <PreferencesContext.Provider value={value}>{children}</PreferencesContext.Provider>;
}

export function usePreferences(): PreferencesContextValue {
  const ctx = useContext(PreferencesContext);
  if (!ctx) throw new Error('usePreferences outside PreferencesProvider');
  return ctx;
}
