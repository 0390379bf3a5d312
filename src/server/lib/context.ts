import type { Redis } from 'ioredis';
import type { Config } from '../config';
import type { Database, Db } from '../db/client';

/** What every route and service can reach, decorated on the Fastify instance as `app.ctx`. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  /** present when REDIS_URL is set: shared rate-limit counters between instances */
  redis?: Redis;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
