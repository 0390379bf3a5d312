/**
 * Serves the built web app (dist/web) with history-mode routing: any GET outside /api that matches no
 * file returns index.html, with the modules of the path's screen to preload (app-page.ts). Without a build
 * (API-only tests) pages answer 404 in the error envelope.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import type { FastifyCompressOptions } from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors';
import { appPage } from './app-page';
import { prerenderedPage } from './pages';
import { PRERENDERED_SCREENS } from './prerendered';
import { PERMISSIONS_POLICY } from '../lib/security-headers';

/** The app's policy with the camera allowed to the page itself: the verifier reads QR codes with it. */
const VERIFIER_PERMISSIONS_POLICY = PERMISSIONS_POLICY.replace('camera=()', 'camera=(self)');

export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../dist/web');

/**
 * @fastify/compress for what the server makes per request (API JSON, CSV exports, the OpenAPI document).
 * Types come from mime-db's "compressible" (JSON, CSV and text yes; PDF, images, zip no: they are
 * compressed already). Small answers (the public lookup's few hundred bytes) are sent as they are: below
 * 1 KB compression costs more time than it saves bytes. Brotli at quality 4, not the default 11, which
 * is meant for files compressed once (the built assets, see scripts/vite-precompress.ts), not per request.
 * Request bodies are not decompressed: clients send plain JSON and multipart, and an inflating body parser
 * would be a way around the body limit.
 */
export const compressOptions: FastifyCompressOptions = {
  global: true,
  globalDecompression: false,
  encodings: ['br', 'gzip'],
  threshold: 1024,
  brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  zlibOptions: { level: 6 },
};

/**
 * Well-known addresses (RFC 8615) the app answers itself, spelt exactly: GS1's resolver description
 * (docs/decisions/0062-gs1-digital-link.md) and the verification keys (0063). Every other dot path stays hidden.
 */
const PUBLISHED = new Set(['/.well-known/gs1resolver', '/.well-known/jwks.json']);

/**
 * A path with a segment that starts with a dot: `/.vite/manifest.json` (the build's list of every source
 * and dependency path, which only the build itself reads, scripts/vite-prerender.ts), `/.env`, `/assets/../x`.
 * Read as the file server would read it, so `/%2evite/` is one too.
 */
export function isHiddenPath(url: string): boolean {
  const pathname = url.split('?')[0] ?? '';
  if (!pathname.includes('.') && !pathname.includes('%')) return false;
  if (PUBLISHED.has(pathname)) return false;
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    decoded = pathname;
  }
  return decoded.split(/[/\\]/).some((segment) => segment.startsWith('.'));
}

/**
 * Hidden paths answer 404 in the error envelope, on every host name: never a file of dist/web, never the
 * app's page (which a 200 would be) and never the public host's redirect to /search. Registered before the
 * public-host guard; a callback hook, as it runs on every request.
 */
export function registerHiddenPaths(app: FastifyInstance): void {
  app.addHook('onRequest', (req, _reply, done) => {
    if (isHiddenPath(req.url)) return done(new AppError('not-found', 'errors.notFound'));
    done();
  });
}

export interface WebApp {
  register(app: FastifyInstance): Promise<void>;
  /** for the not-found handler: pages of the app's own router */
  fallback(req: FastifyRequest, reply: FastifyReply): unknown;
}

export function webApp(dir: string = WEB_DIST): WebApp {
  const hasBuild = () => fs.existsSync(path.join(dir, 'index.html'));
  let registered = false;
  const page = appPage(dir);
  const fallback: WebApp['fallback'] = (req, reply) => {
    if (!registered) return reply.status(404).send({ error: { status: 'NOT_FOUND', message: 'Not Found', key: 'errors.notFound' } });
    return page(req, reply);
  };
  return {
    async register(app) {
      if (!hasBuild()) return;
      registered = true;
      await app.register(fastifyStatic, {
        root: dir,
        // Looked up per request rather than listed at start, so a rebuilt dist/web (new hashed names) is
        // served without a restart; a miss falls through to the not-found handler and its page fallback.
        wildcard: true,
        index: 'index.html',
        // Dot files are not served (registerHiddenPaths answers for them before this plugin is asked).
        dotfiles: 'ignore',
        // Serves file.js.br or file.js.gz written beside file.js at build time (scripts/vite-precompress.ts)
        // when the browser accepts it: the best compression, paid for once instead of per request.
        preCompressed: true,
        // Hashed file names under /assets never change; index.html must always be revalidated.
        setHeaders: (reply, filePath) => {
          reply.header(
            'cache-control',
            filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
          );
        },
      });
      // The first screens, drawn at build time in each language (pages.ts).
      for (const screen of PRERENDERED_SCREENS) app.get(`/${screen}`, prerenderedPage(dir, screen, fallback));
      // The offline verifier (docs/decisions/0063-offline-verification.md): the one page that may use the camera.
      app.get('/verify', { config: { access: 'anonymous' } }, (_req, reply) =>
        reply.header('cache-control', 'no-cache').header('permissions-policy', VERIFIER_PERMISSIONS_POLICY).sendFile('verify.html', dir),
      );
    },
    fallback,
  };
}
