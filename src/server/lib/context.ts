import type { Redis } from 'ioredis';
import type { Config } from '../config';
import type { Database, Db } from '../db/client';
import type { MailHub } from '../mail/hub';
import type { RecentPdfs } from './recent-pdfs';
import type { AfterResponse } from './after-response';
import type { MetricsEndpoint } from './metrics';
import type { UploadSpool } from './upload-spool';
import type { WorkerPool } from './worker-pool';
import type { Wakeup } from './wakeup';

/** What every route and service can reach, decorated on the Fastify instance as `app.ctx`. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  /** present when REDIS_URL is set: shared rate-limit counters between instances */
  redis?: Redis;
  /** work done after the answer (see after-response.ts); close() waits for it */
  afterResponse: AfterResponse;
  /** this app's mail workers, outcome handlers and composers (mail/hub.ts) */
  mail: MailHub;
  /** set when METRICS_TOKEN or METRICS_PORT is set (lib/metrics.ts) */
  metrics?: MetricsEndpoint;
  /** this app's threads for rendering and signing reports, behind a bounded queue (modules/reports/render-job.ts) */
  reportPool: WorkerPool;
  /** this app's recently used report PDFs, dropped when idle by the background work (background.ts) */
  pdfs: RecentPdfs;
  /** this app's spool of CSV uploads (DATA_DIR/spool) and their budget (upload-spool.ts) */
  uploads: UploadSpool;
  /** rung when a delivery's release starts, so that the background release work begins at once (background.ts) */
  releases: Wakeup;
  /** rung after records are stored, so that the alerts they raise are raised now rather than within the minute */
  alerts: Wakeup;
  /** rung when a request wrote webhook deliveries, so that the webhook worker sends them at once (background.ts) */
  webhooks: Wakeup;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
