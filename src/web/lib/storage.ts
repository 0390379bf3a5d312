/** Browser storage of preferences: localStorage and a cookie (30 days, path /), both keyed by the app prefix. */
import { storageKey } from '../../shared/preferences';
import { COOKIE_MAX_AGE_SECONDS } from './constants';

export function readCookie(name: string): string | undefined {
  const prefix = `${encodeURIComponent(name)}=`;
  for (const part of document.cookie.split('; ')) {
    if (part.startsWith(prefix)) return decodeURIComponent(part.slice(prefix.length));
  }
  return undefined;
}

export function writeCookie(name: string, value: string): void {
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${encodeURIComponent(name)}=${encodeURIComponent(value)}; max-age=${COOKIE_MAX_AGE_SECONDS}; path=/; SameSite=Lax${secure}`;
}

/** A stored value: the cookie wins (it is what the original read first), then localStorage. */
export function readStored(name: string): string | undefined {
  const key = storageKey(name);
  const fromCookie = readCookie(key);
  if (fromCookie !== undefined) return fromCookie;
  try {
    return localStorage.getItem(key) ?? undefined;
  } catch {
    return undefined;
  }
}

export function writeStored(name: string, value: string): void {
  const key = storageKey(name);
  writeCookie(key, value);
  try {
    localStorage.setItem(key, value);
  } catch {
    // storage disabled (private mode): the cookie still carries it
  }
}
