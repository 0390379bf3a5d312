/**
 * Serves the built web app (dist/web) with history-mode routing: any GET outside /api that matches no
 * file returns index.html. Without a build (API-only tests) pages answer 404 in the error envelope.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';

export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../dist/web');

function hasBuild(): boolean {
  return fs.existsSync(path.join(WEB_DIST, 'index.html'));
}

export async function registerWebAssets(app: FastifyInstance): Promise<void> {
  if (!hasBuild()) return;
  await app.register(fastifyStatic, {
    root: WEB_DIST,
    wildcard: false,
    index: false,
    // Hashed file names under /assets never change; index.html must always be revalidated.
    setHeaders: (reply, filePath) => {
      reply.header(
        'cache-control',
        filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
}

export function webPageFallback(_config: Config) {
  return (req: FastifyRequest, reply: FastifyReply) => {
    if (!hasBuild()) return reply.status(404).send({ error: { status: 'NOT_FOUND', message: 'Not Found' } });
    return reply.header('cache-control', 'no-cache').sendFile('index.html', WEB_DIST);
  };
}
