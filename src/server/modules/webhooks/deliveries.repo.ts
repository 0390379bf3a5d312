/**
 * The worker's SQL (migration 0044): claiming due deliveries, at most one per endpoint, and recording an
 * attempt's outcome. A claim takes the endpoint's lease (busy_until) with FOR UPDATE SKIP LOCKED, so two
 * workers, in one process or on two instances, never send to one endpoint at once nor send one delivery twice.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client';
import { rowsOf } from '../../db/client';
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents, type WebhookEndpointRow } from '../../db/schema/index';

const interval = (ms: number) => sql`make_interval(secs => ${ms / 1000})`;

/** A claimed delivery with what sending it needs. */
export interface ClaimedDelivery {
  id: number;
  attempts: number;
  eventId: string;
  eventType: string;
  eventAt: Date;
  payload: Record<string, unknown>;
  endpointId: string;
  url: string;
  secret: string;
}

const DUE = sql`d.next_attempt_at <= now() AND (d.status = 'pending' OR (d.status = 'sending' AND d.locked_until < now()))`;

/**
 * Up to `limit` endpoints with something due, least recently served first, each with its oldest due
 * delivery (a delivery whose sender died, its lease run out, before any other, so that the one-in-flight
 * index holds).
 */
export async function claim(db: Db, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  const ids = await db.transaction(async (tx) => {
    const endpoints = rowsOf<{ id: string }>(
      await tx.execute(sql`UPDATE webhook_endpoints SET busy_until = now() + ${interval(leaseMs)}
        WHERE id IN (
          SELECT e.id FROM webhook_endpoints e
           WHERE e.enabled AND (e.busy_until IS NULL OR e.busy_until <= now())
             AND EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND ${DUE})
           ORDER BY e.busy_until NULLS FIRST
           LIMIT ${limit}
           FOR UPDATE SKIP LOCKED)
        RETURNING id`),
    ).map((r) => r.id);
    if (endpoints.length === 0) return [];
    const claimed = rowsOf<{ id: string | number }>(
      await tx.execute(sql`UPDATE webhook_deliveries SET status = 'sending', attempts = attempts + 1,
          locked_until = now() + ${interval(leaseMs)}
        WHERE id IN (
          SELECT DISTINCT ON (d.endpoint_id) d.id FROM webhook_deliveries d
           WHERE d.endpoint_id IN (${sql.join(
             endpoints.map((id) => sql`${id}::uuid`),
             sql`, `,
           )}) AND ${DUE}
           ORDER BY d.endpoint_id, (d.status = 'sending') DESC, d.next_attempt_at, d.id)
        RETURNING id`),
    ).map((r) => Number(r.id));
    return claimed;
  });
  if (ids.length === 0) return [];
  const rows = await db
    .select({
      id: webhookDeliveries.id,
      attempts: webhookDeliveries.attempts,
      eventId: webhookEvents.id,
      eventType: webhookEvents.type,
      eventAt: webhookEvents.createdAt,
      payload: webhookEvents.payload,
      endpointId: webhookEndpoints.id,
      url: webhookEndpoints.url,
      secret: webhookEndpoints.secret,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(inArray(webhookDeliveries.id, ids));
  return rows;
}

export type Outcome =
  { status: 'delivered' } | { status: 'retry'; nextAttemptAt: Date; error: string } | { status: 'failed'; error: string };

export interface AttemptLog {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string | null;
}

/**
 * Records the outcome if this worker still holds the claim (same attempt, still 'sending'): the delivery,
 * the attempt's log row and the endpoint's failure count, and frees the endpoint's lease. Returns the
 * endpoint as it is afterwards, or null when the lease was lost.
 */
export async function recordOutcome(
  tx: Executor,
  d: ClaimedDelivery,
  outcome: Outcome,
  log: AttemptLog,
): Promise<WebhookEndpointRow | null> {
  const set =
    outcome.status === 'delivered'
      ? { status: 'delivered' as const, deliveredAt: sql`now()`, lockedUntil: null, lastError: null }
      : outcome.status === 'retry'
        ? { status: 'pending' as const, nextAttemptAt: outcome.nextAttemptAt, lockedUntil: null, lastError: outcome.error }
        : { status: 'failed' as const, lockedUntil: null, lastError: outcome.error };
  const [updated] = await tx
    .update(webhookDeliveries)
    .set(set)
    .where(and(eq(webhookDeliveries.id, d.id), eq(webhookDeliveries.status, 'sending'), eq(webhookDeliveries.attempts, d.attempts)))
    .returning({ id: webhookDeliveries.id });
  if (!updated) return null;
  await tx.insert(webhookAttempts).values({
    deliveryId: d.id,
    endpointId: d.endpointId,
    eventId: d.eventId,
    eventType: d.eventType,
    attempt: d.attempts,
    ...log,
  });
  const delivered = outcome.status === 'delivered';
  const [endpoint] = await tx
    .update(webhookEndpoints)
    .set({
      busyUntil: sql`now()`,
      consecutiveFailures: delivered ? 0 : sql`${webhookEndpoints.consecutiveFailures} + 1`,
      failingSince: delivered ? null : sql`coalesce(${webhookEndpoints.failingSince}, now())`,
    })
    .where(eq(webhookEndpoints.id, d.endpointId))
    .returning();
  return endpoint ?? null;
}

/** Switches an endpoint off; what was waiting for it fails (a disabled endpoint receives nothing). */
export async function disableEndpoint(tx: Executor, id: string, reason: string): Promise<WebhookEndpointRow | null> {
  const [row] = await tx
    .update(webhookEndpoints)
    .set({ enabled: false, disabledReason: reason, disabledAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.enabled, true)))
    .returning();
  if (row) await failWaiting(tx, id, reason);
  return row ?? null;
}

export async function failWaiting(tx: Executor, endpointId: string, reason: string): Promise<void> {
  await tx
    .update(webhookDeliveries)
    .set({ status: 'failed', lastError: reason })
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, 'pending')));
}
