/*
 * The offline verifier's service worker (docs/decisions/0063-offline-verification.md). The verifier page
 * stores itself, its script and style, and the published keys in the cache named below; this worker serves
 * them when the network does not answer. A certificate's QR link (/search?report=…#proof) opened without a
 * network gets the verifier, which reads the proof after `#`. Every other request is left to the browser.
 */
const CACHE = 'trc-verifier-1';

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

function fromCache(key) {
  return caches.open(CACHE).then((cache) => cache.match(key, { ignoreSearch: true }));
}

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  const verifierPage =
    req.mode === 'navigate' && (url.pathname === '/verify' || (url.pathname === '/search' && url.searchParams.has('report')));
  if (verifierPage) {
    event.respondWith(fetch(req).catch(() => fromCache('/verify').then((hit) => hit || Response.error())));
    return;
  }
  if (url.pathname === '/.well-known/jwks.json') {
    // The network first (a rotation is seen at once), the kept copy without one.
    event.respondWith(fetch(req).catch(() => fromCache(url.pathname).then((hit) => hit || Response.error())));
    return;
  }
  if (url.pathname.startsWith('/assets/') || url.pathname === '/verify.webmanifest' || url.pathname === '/verify-icon.svg') {
    // Hashed names never change: the kept copy first (only the verifier's are kept; others go to the network).
    event.respondWith(fromCache(url.pathname).then((hit) => hit || fetch(req)));
  }
});
