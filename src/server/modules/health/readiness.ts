/**
 * /readyz's report: each dependency on its own, checked at the same time with a time limit, so a dead
 * dependency answers "unavailable" quickly instead of holding the probe.
 *  - database: `select 1` and no pending migration; down → 503.
 *  - redis (only when REDIS_URL is set): PING; down → 503 (shared rate limits and sessions need it).
 *  - outbox: depth, oldest waiting message, retries and recent give-ups; "degraded" when a message waited
 *    longer than 15 minutes or gave up in the last day. Never 503: taking the instance out of the proxy
 *    would not deliver a single message (the mail server is what is down); the metrics and the alerts in
 *    docs/operations.md watch it.
 * The components are for the operator (health.routes.ts says who sees them); without them only the
 * database and Redis are checked, since the outbox never changes the answer.
 */
import { sql } from 'drizzle-orm';
import { pendingMigrations } from '../../db/migrate';
import type { AppContext } from '../../lib/context';
import { OUTBOX_STUCK_SECONDS, outboxState } from '../../mail/outbox-state';

const CHECK_TIMEOUT_MS = 2000;

export interface ComponentReport {
  status: 'ok' | 'degraded' | 'unavailable' | 'unknown';
  [detail: string]: unknown;
}

export interface ReadinessReport {
  status: 'ok' | 'unavailable';
  /** only when asked for (`details`) */
  components?: { database: ComponentReport; redis?: ComponentReport; outbox: ComponentReport };
}

function withTimeout<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

/** A short reason without connection strings or other details that could carry a password. */
function reason(err: unknown): string {
  const e = err as { code?: string; message?: string };
  if (e?.code) return String(e.code);
  return /did not answer/.test(e?.message ?? '') ? 'timeout' : 'error';
}

async function checkDatabase(ctx: AppContext): Promise<ComponentReport> {
  try {
    await withTimeout(ctx.db.execute(sql`select 1`), 'database');
  } catch (err) {
    return { status: 'unavailable', kind: ctx.database.kind, error: reason(err) };
  }
  const pending = await withTimeout(pendingMigrations(ctx.database), 'database').catch(() => [] as string[]);
  if (pending.length > 0) return { status: 'unavailable', kind: ctx.database.kind, pending };
  return { status: 'ok', kind: ctx.database.kind };
}

async function checkRedis(ctx: AppContext): Promise<ComponentReport | undefined> {
  const redis = ctx.redis;
  if (!redis) return undefined;
  // While ioredis reconnects, a command would wait in its offline queue; the state answers at once.
  if (redis.status !== 'ready') return { status: 'unavailable', error: redis.status };
  try {
    await withTimeout(redis.ping(), 'redis');
    return { status: 'ok' };
  } catch (err) {
    return { status: 'unavailable', error: reason(err) };
  }
}

async function checkOutbox(ctx: AppContext): Promise<ComponentReport> {
  try {
    const s = await withTimeout(outboxState(ctx.db), 'database');
    const degraded = s.oldestQueuedSeconds > OUTBOX_STUCK_SECONDS || s.failedLastDay > 0;
    return { status: degraded ? 'degraded' : 'ok', ...s };
  } catch {
    return { status: 'unknown' };
  }
}

export async function checkReadiness(ctx: AppContext, { details }: { details: boolean }): Promise<ReadinessReport> {
  const [database, redis, outbox] = await Promise.all([checkDatabase(ctx), checkRedis(ctx), details ? checkOutbox(ctx) : undefined]);
  const down = database.status !== 'ok' || (redis !== undefined && redis.status !== 'ok');
  const status = down ? 'unavailable' : 'ok';
  if (!details || !outbox) return { status };
  return { status, components: { database, ...(redis ? { redis } : {}), outbox } };
}
