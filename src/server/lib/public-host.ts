/**
 * The original's first guard rule, on the server too: a host name containing `client` or `report` is the
 * customers' address. It serves the public search page and the public API only; everything else
 * redirects to /search (pages) or is refused (API).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors';

export function isPublicHost(hostname: string): boolean {
  return /client|report/i.test(hostname);
}

function allowedOnPublicHost(req: FastifyRequest): boolean {
  const path = req.url.split('?')[0] ?? '/';
  if (path.startsWith('/api/')) return path.startsWith('/api/v1/public/');
  return (
    path === '/search' ||
    path.startsWith('/id/') ||
    // The GS1 Digital Link of a unit, the resolver's description and the verification keys (decisions 0062, 0063).
    path.startsWith('/01/') ||
    path === '/.well-known/gs1resolver' ||
    path === '/.well-known/jwks.json' ||
    // The offline verifier and its service worker (0063).
    path === '/verify' ||
    path === '/verify-sw.js' ||
    path.startsWith('/assets/') ||
    /^\/[\w.-]+\.(ico|png|svg|webmanifest|txt)$/.test(path) ||
    path === '/healthz' ||
    path === '/readyz'
  );
}

/** A callback hook, not an async one: it runs on every request, the public lookup's included. */
export function registerPublicHostGuard(app: FastifyInstance): void {
  app.addHook('onRequest', (req, reply, done) => {
    if (!isPublicHost(req.hostname) || allowedOnPublicHost(req)) return done();
    if (req.url.startsWith('/api/')) return done(new AppError('permission-denied', 'errors.staffOnlyHost'));
    const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
    reply.redirect(`/search${query}`, 302);
  });
}
