/**
 * Builds the Fastify app (no listen): plugins, security hooks, error envelope, OpenAPI and every domain's
 * routes. Tests build it on a fresh database; main.ts builds it on the configured one.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type * as IoredisModule from 'ioredis';
import { defaultReportQueue, type Config } from './config';
import type { Database } from './db/client';
import { registerAccessControl } from './lib/access';
import { AfterResponse } from './lib/after-response';
import { registerBodyParsers } from './lib/body-parsers';
import { addressKey } from './lib/client-key';
import type { AppContext } from './lib/context';
import { registerCsrfProtection } from './lib/csrf';
import { packageOnFirstUse } from './lib/first-use';
import { registerForwardedHostPolicy } from './lib/forwarded-host';
import { configuredLogStream, RequestLogAtDebug, type LogStream } from './lib/log';
import { frameworkErrorHandler, registerErrorHandling } from './lib/error-handler';
import { registerPublicHostGuard } from './lib/public-host';
import { createMetrics, registerRequestTiming } from './lib/metrics';
import { outboxState } from './mail/outbox-state';
import { registerSecurityHeaders } from './lib/security-headers';
import { mailHubOf } from './mail/hub';
import { registerModules } from './modules/index';
import { createReportPool } from './modules/reports/render-job';
import { RecentPdfs } from './lib/recent-pdfs';
import { Wakeup } from './lib/wakeup';
import { UploadSpool } from './lib/upload-spool';
import { compressOptions, registerHiddenPaths, webApp } from './web/static';

// ioredis only when REDIS_URL is set (lib/first-use.ts).
const ioredis = packageOnFirstUse<typeof IoredisModule>('ioredis');

export interface BuildAppOptions {
  config: Config;
  database: Database;
  /** false in tests that do not want the log */
  logger?: boolean;
  /** where the log goes; default stdout, in the format of LOG_FORMAT or by whether it is a terminal (lib/log.ts) */
  logStream?: LogStream;
  /** folder of the built web app; default dist/web */
  webDist?: string;
}

export const BODY_LIMIT = 1024 * 1024;

/**
 * What the log keeps of a request: the path without its query string, which may carry personal data
 * (search filters, an email address) or, from an old reset link, a token.
 */
export function requestForLog(req: FastifyRequest) {
  return { method: req.method, url: req.url.split('?')[0], host: req.host, remoteAddress: req.ip };
}

/**
 * Fastify/Node options for the connection deadlines, so a client trickling bytes (a slow-loris) cannot
 * hold a connection open: Fastify's default request timeout is none at all. Node checks the header and
 * request deadlines on a timer; it runs often enough that a deadline is kept to within a quarter of itself.
 */
export function connectionDeadlines(timeouts: Config['timeouts']) {
  const checkEvery = Math.max(50, Math.min(30_000, Math.floor(Math.min(timeouts.headersMs, timeouts.requestMs) / 4)));
  return {
    connectionTimeout: timeouts.idleMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    requestTimeout: timeouts.requestMs,
    http: { headersTimeout: timeouts.headersMs, requestTimeout: timeouts.requestMs, connectionsCheckingInterval: checkEvery },
  };
}

export async function buildApp({ config, database, logger = true, logStream, webDist }: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger
      ? { level: config.logLevel, serializers: { req: requestForLog }, stream: logStream ?? configuredLogStream(config) }
      : false,
    logController: new RequestLogAtDebug(),
    trustProxy: config.trustProxy,
    bodyLimit: BODY_LIMIT,
    ...connectionDeadlines(config.timeouts),
    genReqId: () => randomUUID(),
    routerOptions: { ignoreTrailingSlash: true },
    // A malformed URL (e.g. a broken %-escape) gets the usual error envelope instead of Fastify's own body.
    frameworkErrors: frameworkErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();

  registerForwardedHostPolicy(app, config.trustForwardedHost);
  registerBodyParsers(app);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // Emptied here, at start: a file left in the spool belonged to a request of a process that has ended.
  // Before anything that would need closing if it failed (DATA_DIR not writable).
  const uploads = await UploadSpool.open(path.join(config.dataDir, 'spool'), config.uploads);
  const redis = config.redisUrl ? new (ioredis().Redis)(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 }) : undefined;
  // ioredis reconnects by itself; without a listener each failed attempt would print "Unhandled error event".
  // Only the error code is logged (the message may name the host); /readyz reports Redis as unavailable.
  redis?.on('error', (err: NodeJS.ErrnoException) => app.log.warn({ code: err.code ?? 'error' }, 'redis connection error'));
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    redis,
    afterResponse: new AfterResponse(app.log),
    mail: mailHubOf(database.db),
    reportPool: createReportPool({ ...config.reports, queue: config.reports.queue ?? defaultReportQueue(database.kind) }),
    pdfs: new RecentPdfs(),
    releases: new Wakeup(),
    alerts: new Wakeup(),
    webhooks: new Wakeup(),
    uploads,
  };
  if (config.metricsToken || config.metricsPort) {
    ctx.metrics = createMetrics(ctx, outboxState);
    registerRequestTiming(app);
  }
  app.decorate('ctx', ctx);
  app.addHook('onClose', async () => {
    await ctx.afterResponse.idle();
    await ctx.reportPool.close();
    await redis?.quit();
  });

  // Every response carries its request id, so a user's report of a failure can be found in the log.
  // (A callback hook: an async one costs a promise per request on every route, the public lookup's included.)
  app.addHook('onSend', (req, reply, payload, done) => {
    reply.header('x-request-id', req.id);
    done(null, payload);
  });

  await app.register(cookie);
  await registerSecurityHeaders(app, helmet);
  await app.register(rateLimit, {
    global: false,
    // Every route limit counts the client as the app's other limits do (an IPv6 client by its /64).
    keyGenerator: (req) => addressKey(req.ip),
    ...(redis ? { redis, nameSpace: 'trc-rl:' } : {}),
  });
  // Before the routes and @fastify/static, as the plugin requires; options and reasons in web/static.ts.
  await app.register(compress, compressOptions);

  await app.register(swagger, {
    openapi: {
      info: { title: 'Test Report Center API', version: '1' },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'trc_session' },
          benchKey: { type: 'http', scheme: 'bearer' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  app.get('/api/openapi.json', { schema: { hide: true }, config: { access: 'public' } }, async () => app.swagger());

  const web = webApp(webDist);
  registerErrorHandling(app, web.fallback);
  registerHiddenPaths(app);
  registerPublicHostGuard(app);
  registerCsrfProtection(app, [new URL(config.publicBaseUrl).origin]);
  registerAccessControl(app, database.db);

  await registerModules(app);
  await web.register(app);
  return app;
}
