import type { FastifyInstance } from 'fastify';
import type helmetPlugin from '@fastify/helmet';

/**
 * Helmet with a CSP under which the web app works: MUI (emotion) injects <style> elements, pdf.js runs a
 * worker from a blob, previews use blob: URLs. HSTS only when the request came over HTTPS.
 */
/** The app uses none of these browser features; nothing embedded or injected may either. */
export const PERMISSIONS_POLICY =
  'accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=(), interest-cohort=()';

export async function registerSecurityHeaders(app: FastifyInstance, helmet: typeof helmetPlugin): Promise<void> {
  await app.register(helmet, {
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
    frameguard: { action: 'deny' },
    hsts: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onSend', async (req, reply) => {
    if (req.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    reply.header('permissions-policy', PERMISSIONS_POLICY);
    // API answers depend on the session (or carry visitor data): no browser or proxy may keep a copy.
    if (req.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
  });
}
