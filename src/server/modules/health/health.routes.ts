import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../../shared/errors';
import { tokenMatches } from '../../lib/metrics';
import { isPublicHost } from '../../lib/public-host';
import { checkReadiness } from './readiness';

const component = z.object({ status: z.string() }).catchall(z.unknown());
const ready = z.object({
  status: z.enum(['ok', 'unavailable']),
  components: z.object({ database: component, redis: component.optional(), outbox: component }).optional(),
});

/**
 * /healthz: the process answers (liveness; touches nothing). /readyz: 200 or 503 when the database or Redis
 * is down or a migration is pending (readiness.ts). The outbox's state is reported but never makes the
 * instance unready: stopping traffic to it would not deliver any mail.
 * Who may read each dependency's report (outbox depth, retries, failures of the day, pending migrations):
 * a caller with METRICS_TOKEN, or a signed-in user on a staff host name. Anyone else, and every caller on a
 * report host name but the token's, gets the status alone: a proxy's or container's probe needs no more,
 * and a stranger learns nothing about the mail or the database (decision 0042).
 */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/healthz',
    { schema: { hide: true, response: { 200: z.object({ status: z.literal('ok') }) } }, config: { access: 'public' } },
    async () => ({ status: 'ok' as const }),
  );

  app.get('/readyz', { schema: { hide: true, response: { 200: ready, 503: ready } }, config: { access: 'public' } }, async (req, reply) => {
    const { metricsToken } = app.ctx.config;
    const operator = metricsToken !== undefined && tokenMatches(req.headers.authorization, metricsToken);
    const staff = req.user !== null && !isPublicHost(req.hostname);
    const report = await checkReadiness(app.ctx, { details: operator || staff });
    reply.header('cache-control', 'no-store');
    return reply.status(report.status === 'ok' ? 200 : 503).send(report);
  });

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
