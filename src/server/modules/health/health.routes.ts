import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../../shared/errors';
import { tokenMatches } from '../../lib/metrics';
import { checkReadiness } from './readiness';

const component = z.object({ status: z.string() }).catchall(z.unknown());
const ready = z.object({
  status: z.enum(['ok', 'unavailable']),
  components: z.object({ database: component, redis: component.optional(), outbox: component }),
});

/**
 * /healthz: the process answers (liveness; touches nothing). /readyz: each dependency reported on its own
 * (readiness.ts); 503 when the database or Redis is down or a migration is pending. The outbox's state is
 * reported but never makes the instance unready: stopping traffic to it would not deliver any mail.
 */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/healthz',
    { schema: { hide: true, response: { 200: z.object({ status: z.literal('ok') }) } }, config: { access: 'public' } },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    { schema: { hide: true, response: { 200: ready, 503: ready } }, config: { access: 'public' } },
    async (_req, reply) => {
      const report = await checkReadiness(app.ctx);
      reply.header('cache-control', 'no-store');
      return reply.status(report.status === 'ok' ? 200 : 503).send(report);
    },
  );

  // Prometheus text on the main port only with METRICS_TOKEN (METRICS_PORT alone serves it on its own port).
  app.get('/metrics', { schema: { hide: true }, config: { access: 'public' } }, async (req, reply) => {
    const { metrics, config } = app.ctx;
    if (!metrics || !config.metricsToken) throw new AppError('not-found', 'errors.notFound');
    if (!tokenMatches(req.headers.authorization, config.metricsToken)) {
      reply.header('www-authenticate', 'Bearer');
      throw new AppError('unauthenticated', 'errors.unauthenticated');
    }
    const { contentType, body } = await metrics.scrape();
    return reply.header('cache-control', 'no-store').type(contentType).send(body);
  });
};
