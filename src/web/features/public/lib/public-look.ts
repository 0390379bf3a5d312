/**
 * The public page's look without a styling library: the visitor's theme (light, dark or the system's) and
 * skin, read from the same preferences the staff app writes, set as `data-theme`/`data-skin` on <html>,
 * which public.css reads. The markup does not depend on the look, so the prerendered page is hydrated in
 * any look; the step-2 parts drawn with MUI read the same values (mui-island.tsx).
 */
import { useSyncExternalStore } from 'react';
import { DEFAULT_PREFERENCES, parsePreference, type Preferences } from '../../../../shared/preferences';
import { readStored } from '../../../lib/storage';

export interface Look {
  mode: 'light' | 'dark';
  skin: Preferences['skin'];
}

const DARK_QUERY = '(prefers-color-scheme: dark)';

export function readLook(): Look {
  const theme = parsePreference('theme', readStored('theme')) ?? DEFAULT_PREFERENCES.theme;
  const skin = parsePreference('skin', readStored('skin')) ?? DEFAULT_PREFERENCES.skin;
  const dark = theme === 'dark' || (theme === 'system' && window.matchMedia(DARK_QUERY).matches);
  return { mode: dark ? 'dark' : 'light', skin };
}

let look: Look = { mode: 'light', skin: DEFAULT_PREFERENCES.skin };
const listeners = new Set<() => void>();

function apply(): void {
  const next = readLook();
  if (next.mode !== look.mode || next.skin !== look.skin) look = next;
  const root = document.documentElement;
  root.dataset.theme = look.mode;
  root.dataset.skin = look.skin;
  root.style.colorScheme = look.mode;
  for (const listener of listeners) listener();
}

let started = false;

/** Applies the visitor's look to the page and follows the system's scheme when the theme is "system". */
export function startLook(): void {
  if (started) return;
  started = true;
  apply();
  window.matchMedia(DARK_QUERY).addEventListener('change', apply);
}

const server: Look = { mode: 'light', skin: DEFAULT_PREFERENCES.skin };

export function useLook(): Look {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => look,
    () => server,
  );
}
