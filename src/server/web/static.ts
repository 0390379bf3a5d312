/**
 * Serves the built web app (dist/web) with history-mode routing: any GET outside /api that matches no
 * file returns index.html. Without a build (API-only tests) pages answer 404 in the error envelope.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../dist/web');

export interface WebApp {
  register(app: FastifyInstance): Promise<void>;
  /** for the not-found handler: pages of the app's own router */
  fallback(req: FastifyRequest, reply: FastifyReply): unknown;
}

export function webApp(dir: string = WEB_DIST): WebApp {
  const hasBuild = () => fs.existsSync(path.join(dir, 'index.html'));
  let registered = false;
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
        // Hashed file names under /assets never change; index.html must always be revalidated.
        setHeaders: (reply, filePath) => {
          reply.header(
            'cache-control',
            filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
          );
        },
      });
    },
    fallback(_req, reply) {
      if (!registered) return reply.status(404).send({ error: { status: 'NOT_FOUND', message: 'Not Found', key: 'errors.notFound' } });
      return reply.header('cache-control', 'no-cache').sendFile('index.html', dir);
    },
  };
}
