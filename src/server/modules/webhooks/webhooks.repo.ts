/** SQL of webhook endpoints and their delivery log (migration 0044). */
import { count, desc, eq, sql } from 'drizzle-orm';
import type { WebhookAttempt, WebhookEndpoint } from '../../../shared/contract/webhooks';
import type { Executor } from '../../db/client';
import { customers, webhookAttempts, webhookEndpoints, type WebhookEndpointRow } from '../../db/schema/index';
import { secretHint } from './signature';

const e = webhookEndpoints;

export function toEndpoint(row: WebhookEndpointRow, customerName: string | null): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    customerId: row.customerId,
    customerName,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    disabledAt: row.disabledAt?.toISOString() ?? null,
    secretHint: secretHint(row.secret),
    consecutiveFailures: row.consecutiveFailures,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function listEndpoints(db: Executor): Promise<WebhookEndpoint[]> {
  const rows = await db
    .select({ row: e, customerName: customers.name })
    .from(e)
    .leftJoin(customers, eq(customers.id, e.customerId))
    .orderBy(e.createdAt, e.id);
  return rows.map((r) => toEndpoint(r.row, r.customerName));
}

export async function findEndpoint(db: Executor, id: string, forUpdate = false): Promise<WebhookEndpointRow | undefined> {
  const q = db.select().from(e).where(eq(e.id, id)).limit(1);
  const [row] = forUpdate ? await q.for('update') : await q;
  return row;
}

export async function customerName(db: Executor, customerId: string | null): Promise<string | null> {
  if (!customerId) return null;
  const [row] = await db.select({ name: customers.name }).from(customers).where(eq(customers.id, customerId)).limit(1);
  return row?.name ?? null;
}

export async function customerExists(db: Executor, customerId: string): Promise<boolean> {
  return (await customerName(db, customerId)) !== null;
}

export async function insertEndpoint(
  db: Executor,
  v: { url: string; description: string; events: string[]; customerId: string | null; enabled: boolean; secret: string },
): Promise<WebhookEndpointRow> {
  const [row] = await db
    .insert(e)
    .values({ ...v, disabledReason: v.enabled ? null : 'disabled by an administrator', disabledAt: v.enabled ? null : sql`now()` })
    .returning();
  return row!;
}

export async function updateEndpoint(
  db: Executor,
  id: string,
  v: Partial<Pick<WebhookEndpointRow, 'url' | 'description' | 'events' | 'customerId' | 'enabled' | 'secret'>> & {
    disabledReason?: string | null;
    resetFailures?: boolean;
  },
): Promise<WebhookEndpointRow> {
  const { resetFailures, disabledReason, ...fields } = v;
  const [row] = await db
    .update(e)
    .set({
      ...fields,
      ...(disabledReason !== undefined ? { disabledReason, disabledAt: disabledReason ? sql`now()` : null } : {}),
      ...(resetFailures ? { consecutiveFailures: 0, failingSince: null } : {}),
      updatedAt: sql`now()`,
    })
    .where(eq(e.id, id))
    .returning();
  return row!;
}

export async function deleteEndpoint(db: Executor, id: string): Promise<void> {
  await db.delete(e).where(eq(e.id, id));
}

/** One endpoint's attempts, newest first. */
export async function listAttempts(
  db: Executor,
  endpointId: string,
  window: { limit: number; offset: number },
): Promise<{ items: WebhookAttempt[]; total: number }> {
  const a = webhookAttempts;
  const rows = await db.select().from(a).where(eq(a.endpointId, endpointId)).orderBy(desc(a.id)).limit(window.limit).offset(window.offset);
  const [total] = await db.select({ n: count() }).from(a).where(eq(a.endpointId, endpointId));
  return {
    items: rows.map((r) => ({
      id: r.id,
      eventId: r.eventId,
      eventType: r.eventType,
      attempt: r.attempt,
      statusCode: r.statusCode,
      durationMs: r.durationMs,
      error: r.error,
      responseBody: r.responseBody,
      createdAt: r.createdAt.toISOString(),
    })),
    total: Number(total?.n ?? 0),
  };
}
