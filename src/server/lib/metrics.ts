/**
 * Prometheus metrics (prom-client). Off unless METRICS_TOKEN or METRICS_PORT is set (docs/operations.md).
 *
 * Two registries: the process's (request durations, report generation time, ingested records, the
 * process's own figures) which code anywhere adds to, and each app's (outbox, database pool) whose gauges
 * are read at scrape time: the outbox with two queries on indexes (mail/outbox-state.ts), the pool from
 * memory. One scrape merges both.
 */
import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import client from 'prom-client';
import type { AppContext } from './context';
import type { OutboxState } from '../mail/outbox-state';

/** How the app reads its outbox (mail/outbox-state.ts), passed in: the mail layer sits above this one. */
export type ReadOutbox = (db: AppContext['db']) => Promise<OutboxState>;

export const processRegistry = new client.Registry();
let defaultsCollected = false;

export const httpDuration = new client.Histogram({
  name: 'trc_http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by method, route pattern and status code',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [processRegistry],
});

export const reportGeneration = new client.Histogram({
  name: 'trc_report_generation_seconds',
  help: 'Time to render and sign one test report PDF',
  labelNames: ['language'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
  registers: [processRegistry],
});

export const ingestedRecords = new client.Counter({
  name: 'trc_machine_data_records_total',
  help: 'Test records received on POST /api/v1/machine-data, by outcome (stored, duplicate)',
  labelNames: ['outcome'] as const,
  registers: [processRegistry],
});

export const ingestBatches = new client.Counter({
  name: 'trc_machine_data_batches_total',
  help: 'Batches received on POST /api/v1/machine-data, by result (accepted, refused)',
  labelNames: ['result'] as const,
  registers: [processRegistry],
});

/** Read as a delivery's ZIP is written, one at a time, only once the client has taken the previous ones. */
export const deliveryZipPdfs = new client.Counter({
  name: 'trc_delivery_zip_pdfs_total',
  help: "Certificates read from the database for delivery links' ZIP downloads",
  registers: [processRegistry],
});

/** The metrics of one app: the outbox and the database pool, read when scraped. */
function appRegistry(ctx: AppContext, outboxState: ReadOutbox): client.Registry {
  const registry = new client.Registry();
  let pending: Promise<OutboxState | null> | null = null;
  // The four outbox gauges share one read per scrape.
  const state = () => {
    pending ??= outboxState(ctx.db)
      .catch(() => null)
      .finally(() => setTimeout(() => (pending = null), 0));
    return pending;
  };
  const outboxGauge = (name: string, help: string, pick: (s: OutboxState) => number) =>
    new client.Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const s = await state();
        if (s) this.set(pick(s));
      },
    });
  outboxGauge('trc_outbox_depth', 'Messages waiting in the mail outbox (queued or being sent)', (s) => s.depth);
  outboxGauge(
    'trc_outbox_oldest_queued_seconds',
    'Age of the oldest waiting outbox message; 0 when none waits',
    (s) => s.oldestQueuedSeconds,
  );
  outboxGauge('trc_outbox_retrying', 'Waiting outbox messages that already failed at least once', (s) => s.retrying);
  outboxGauge('trc_outbox_failed_last_day', 'Outbox messages that gave up (status failed) in the last 24 hours', (s) => s.failedLastDay);
  new client.Gauge({
    name: 'trc_outbox_up',
    help: '1 when the outbox could be read at scrape time (the database answered), else 0',
    registers: [registry],
    async collect() {
      this.set((await state()) ? 1 : 0);
    },
  });

  const pool = ctx.database.pool;
  if (pool) {
    new client.Gauge({
      name: 'trc_db_pool_connections',
      help: 'PostgreSQL pool connections by state (total, idle, waiting = requests queued for a connection)',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
    new client.Gauge({
      name: 'trc_db_pool_max',
      help: 'Largest number of connections the PostgreSQL pool opens',
      registers: [registry],
      collect() {
        this.set(ctx.database.poolMax ?? 0);
      },
    });
  }
  return registry;
}

export interface MetricsEndpoint {
  /** the text Prometheus reads */
  scrape(): Promise<{ contentType: string; body: string }>;
}

export function createMetrics(ctx: AppContext, outboxState: ReadOutbox): MetricsEndpoint {
  if (!defaultsCollected) {
    client.collectDefaultMetrics({ register: processRegistry, prefix: 'trc_' });
    defaultsCollected = true;
  }
  const own = appRegistry(ctx, outboxState);
  return {
    async scrape() {
      const merged = client.Registry.merge([processRegistry, own]);
      return { contentType: merged.contentType, body: await merged.metrics() };
    },
  };
}

/** Request durations by route pattern (never the raw URL: ids and serials would make endless series). */
export function registerRequestTiming(app: FastifyInstance): void {
  app.addHook('onResponse', async (req: FastifyRequest, reply: FastifyReply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    httpDuration.observe({ method: req.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
}

/**
 * METRICS_PORT: a listener of its own answering only GET /metrics (bearer token too when METRICS_TOKEN is
 * set), so the main port, which the proxy publishes, never shows it.
 */
export async function listenMetrics(metrics: MetricsEndpoint, port: number, host: string, token?: string): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    if (token && !tokenMatches(req.headers.authorization, token)) {
      res.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' }).end('unauthorized\n');
      return;
    }
    metrics.scrape().then(
      ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(body),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics failed\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}

export function tokenMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!m) return false;
  const given = Buffer.from(m[1]!.trim());
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}

/** After a batch on POST /api/v1/machine-data: `result` null when the batch was refused. */
export function countIngest(result: { stored: number; duplicates: string[] } | null): void {
  if (!result) {
    ingestBatches.inc({ result: 'refused' });
    return;
  }
  ingestBatches.inc({ result: 'accepted' });
  if (result.stored) ingestedRecords.inc({ outcome: 'stored' }, result.stored);
  if (result.duplicates.length) ingestedRecords.inc({ outcome: 'duplicate' }, result.duplicates.length);
}
