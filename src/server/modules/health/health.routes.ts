import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pendingMigrations } from '../../db/migrate';

const health = z.object({ status: z.string(), database: z.string().optional(), pending: z.array(z.string()).optional() });

/** /healthz: the process answers. /readyz: the database answers and every migration is applied. */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/healthz', { schema: { hide: true, response: { 200: health } }, config: { access: 'public' } }, async () => ({
    status: 'ok',
  }));

  app.get(
    '/readyz',
    { schema: { hide: true, response: { 200: health, 503: health } }, config: { access: 'public' } },
    async (_req, reply) => {
      try {
        await app.ctx.db.execute(sql`select 1`);
      } catch {
        return reply.status(503).send({ status: 'unavailable', database: 'unreachable' });
      }
      const pending = await pendingMigrations(app.ctx.database);
      if (pending.length > 0) return reply.status(503).send({ status: 'unavailable', database: 'ok', pending });
      return { status: 'ok', database: app.ctx.database.kind };
    },
  );
};
