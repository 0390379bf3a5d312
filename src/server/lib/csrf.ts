/**
 * CSRF defence for cookie-authenticated state changes: the request must come from the app's own origin.
 * Browsers send `Sec-Fetch-Site` and `Origin` on cross-site requests; a cross-site value is refused. Only
 * JSON and multipart bodies are parsed at all, so a plain HTML form cannot post here, and multipart
 * uploads must carry our own Origin. Bench requests authenticate with a key, not cookies, and are not affected.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors';
import { SESSION_COOKIE } from './sessions';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function ownOrigin(req: FastifyRequest): string {
  return `${req.protocol}://${req.host}`;
}

/** True when the browser told us the request comes from another site. */
export function isCrossSite(req: FastifyRequest, allowedOrigins: string[]): boolean {
  const fetchSite = req.headers['sec-fetch-site'];
  if (fetchSite === 'cross-site' || fetchSite === 'same-site') return true;
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  if (origin === 'null') return true;
  return origin !== ownOrigin(req) && !allowedOrigins.includes(origin);
}

/** `allowedOrigins`: PUBLIC_BASE_URL's origin, for deployments where the Host header differs from it. */
export function registerCsrfProtection(app: FastifyInstance, allowedOrigins: string[]): void {
  // A callback hook, not an async one: it runs on every request, the public lookup's included.
  app.addHook('onRequest', (req, _reply, done) => {
    if (SAFE_METHODS.has(req.method) || req.routeOptions.config?.access === 'bench') return done();
    // Sign-in and the public forms are refused cross-site too (login CSRF, abuse from other pages).
    if (isCrossSite(req, allowedOrigins)) return done(new AppError('permission-denied', 'errors.crossSite'));
    // Multipart is what an HTML form can send cross-site, so a cookie-carrying upload must name its origin.
    const multipart = (req.headers['content-type'] ?? '').startsWith('multipart/');
    if (multipart && req.cookies[SESSION_COOKIE] && req.headers.origin === undefined) {
      return done(new AppError('permission-denied', 'errors.crossSite'));
    }
    done();
  });
}
