import Fastify, { type FastifyInstance } from 'fastify';
import type helmetPlugin from '@fastify/helmet';

/**
 * The headers every response carries: helmet's, with a CSP under which the web app works (MUI (emotion)
 * injects <style> elements, pdf.js runs a worker from a blob, previews use blob: URLs), the Permissions
 * Policy, HSTS when the request came over HTTPS, and `no-store` on API answers.
 */
/** The app uses none of these browser features; nothing embedded or injected may either. */
export const PERMISSIONS_POLICY =
  'accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=(), interest-cohort=()';

export const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Helmet's options. Nothing here depends on the request: no nonces, no directive given as a function, HSTS
 * left to the hook below. That is what lets helmetHeaders() compute the headers once.
 */
export const HELMET_OPTIONS = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      workerSrc: ["'self'", 'blob:'],
      frameSrc: ["'self'", 'blob:'],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      upgradeInsecureRequests: null,
    },
  },
  // The same as frame-ancestors 'none', for browsers that only read the older header.
  frameguard: { action: 'deny' as const },
  hsts: false,
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' as const },
  crossOriginEmbedderPolicy: false,
};

/**
 * The headers helmet sets with `options`, found by letting @fastify/helmet answer one request of a throwaway
 * instance at start-up. The plugin itself builds helmet's middleware anew for every request, CSP parsing
 * included: the largest single cost of the public lookup (docs/decisions/0028). Helmet stays the author of
 * the values; they are only computed once. Refuses options whose headers could differ per request.
 */
export async function helmetHeaders(helmet: typeof helmetPlugin, options: typeof HELMET_OPTIONS): Promise<Record<string, string>> {
  const directives = Object.values(options.contentSecurityPolicy.directives);
  if (directives.some((d) => Array.isArray(d) && d.some((v) => typeof v !== 'string'))) {
    throw new Error('security headers: a CSP directive computed per request cannot be sent as a fixed header');
  }
  const probe = Fastify({ logger: false });
  let headers: Record<string, string> = {};
  await probe.register(helmet, options);
  probe.get('/', async (_req, reply) => {
    // Only what helmet has set on the raw response by now: Fastify adds its own headers later.
    headers = Object.fromEntries(Object.entries(reply.raw.getHeaders()).map(([k, v]) => [k, String(v)]));
    return '';
  });
  try {
    await probe.inject('/');
  } finally {
    await probe.close();
  }
  if (!headers['content-security-policy']) throw new Error('security headers: helmet set no Content-Security-Policy');
  return headers;
}

/**
 * What a JSON answer carries instead of the document set: the headers the OWASP REST Security Cheat Sheet
 * lists for API responses (docs/decisions/0036-api-answers-security-headers.md), Cross-Origin-Resource-Policy
 * so that no other site can read an answer by embedding it, and a CSP that lets the answer, opened on its
 * own, load and run nothing. The rest of the document set (referrer, opener, permissions, prefetch, legacy
 * XSS and download switches) governs what a page does, and a JSON answer is never rendered as one.
 */
export const API_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
};

/** A JSON answer (`application/json`, any parameters): gets API_HEADERS instead of the document set. */
export function isJsonAnswer(contentType: unknown): boolean {
  return typeof contentType === 'string' && contentType.startsWith('application/json');
}

/**
 * Registers the headers on every response (error answers, files and pages included) in one callback hook
 * when the answer is sent, instead of helmet's two async hooks per request: the document set for pages,
 * files and anything not JSON, API_HEADERS for JSON answers (a few short headers instead of thirteen, on
 * the public lookup's every answer: docs/decisions/0036), HSTS over HTTPS and `no-store` under /api/.
 * This hook is the author of these headers: no route sets one of them.
 */
export async function registerSecurityHeaders(app: FastifyInstance, helmet: typeof helmetPlugin): Promise<void> {
  const documents = { ...(await helmetHeaders(helmet, HELMET_OPTIONS)), 'permissions-policy': PERMISSIONS_POLICY };
  app.addHook('onSend', (req, reply, payload, done) => {
    reply.headers(isJsonAnswer(reply.getHeader('content-type')) ? API_HEADERS : documents);
    if (req.protocol === 'https') reply.header('strict-transport-security', HSTS);
    // API answers depend on the session (or carry visitor data): no browser or proxy may keep a copy.
    if (req.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}
