/**
 * The host name is the one the proxy vouches for. Behind a trusted proxy Fastify takes `req.host` from
 * X-Forwarded-Host, which a proxy that does not set it passes through from the client: `Host:
 * report.example.com` with the client's own `X-Forwarded-Host: staff.example.com` would reach the staff API
 * (lib/public-host.ts) and pass the CSRF origin check (lib/csrf.ts), which both read `req.host`. Unless
 * TRUST_FORWARDED_HOST says the proxy sets that header itself, it is dropped before anything reads it, so
 * the host name is the Host header the proxy sent. `Forwarded: host=` is never read (Fastify ignores it).
 */
import type { FastifyInstance } from 'fastify';

/** Registers the rule; the app's first onRequest hook, so that every later hook and route sees the same host. */
export function registerForwardedHostPolicy(app: FastifyInstance, trustForwardedHost: boolean): void {
  if (trustForwardedHost) return;
  app.addHook('onRequest', (req, _reply, done) => {
    delete req.raw.headers['x-forwarded-host'];
    done();
  });
}
