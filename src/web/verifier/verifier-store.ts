/**
 * What the verifier keeps on the device to work offline (docs/decisions/0063-offline-verification.md): its
 * own page, script and style in the cache its service worker (public/verify-sw.js) serves from, and the
 * published keys, in that cache and in localStorage with the day they were fetched.
 */
import { JWKS_PATH, proofKeysOf, type ProofKey } from '../../shared/offline-proof';

const CACHE = 'trc-verifier-1';
const KEYS_ITEM = 'trc.verifier.keys';

export interface KeptKeys {
  keys: ProofKey[];
  /** when they were fetched, ISO */
  fetchedAt: string;
}

function readKept(): KeptKeys | null {
  try {
    const kept = JSON.parse(localStorage.getItem(KEYS_ITEM) ?? 'null') as KeptKeys | null;
    return kept && Array.isArray(kept.keys) ? { keys: proofKeysOf(kept), fetchedAt: kept.fetchedAt } : null;
  } catch {
    return null;
  }
}

/** The published keys: fetched when there is a network (and kept), else the kept ones. */
export async function loadKeys(): Promise<KeptKeys | null> {
  try {
    const res = await fetch(JWKS_PATH, { cache: 'no-cache' });
    if (!res.ok) return readKept();
    const keys = proofKeysOf(await res.json());
    if (keys.length === 0) return readKept();
    const kept = { keys, fetchedAt: new Date().toISOString() };
    localStorage.setItem(KEYS_ITEM, JSON.stringify(kept));
    return kept;
  } catch {
    return readKept();
  }
}

/**
 * Registers the service worker and puts the page and everything it loaded from this site in its cache.
 * Answers whether the verifier can now open without a network.
 */
export async function keepForOffline(): Promise<boolean> {
  if (!('serviceWorker' in navigator) || !('caches' in window)) return false;
  try {
    await navigator.serviceWorker.register('/verify-sw.js', { scope: '/' });
    const own = [
      ...document.querySelectorAll<HTMLScriptElement | HTMLLinkElement>('script[src], link[rel=stylesheet], link[rel=modulepreload]'),
    ]
      .map((el) => ('src' in el && el.src ? el.src : (el as HTMLLinkElement).href))
      .filter((href) => new URL(href).origin === location.origin)
      .map((href) => new URL(href).pathname);
    const cache = await caches.open(CACHE);
    const wanted = ['/verify', '/verify.webmanifest', '/verify-icon.svg', JWKS_PATH, ...new Set(own)];
    try {
      await cache.addAll(wanted);
      // A new build's files replace the last one's: nothing else is kept.
      for (const kept of await cache.keys()) if (!wanted.includes(new URL(kept.url).pathname)) await cache.delete(kept);
    } catch {
      // No network (opened from the cache): ready if it was kept before.
    }
    return (await cache.match('/verify')) !== undefined;
  } catch {
    return false;
  }
}

/** Whether this browser verifies Ed25519 signatures (WebCrypto; Chromium 137, Safari 17, Firefox 129). */
export async function canVerify(): Promise<boolean> {
  try {
    await crypto.subtle.importKey(
      'jwk',
      { kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' },
      { name: 'Ed25519' },
      false,
      ['verify'],
    );
    return true;
  } catch {
    return false;
  }
}
