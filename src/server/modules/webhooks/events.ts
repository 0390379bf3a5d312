/**
 * Raising an event: other modules call `enqueueWebhookEvent` inside the transaction of the change, so that
 * the event is written with the change or not at all (an outbox, as mail/outbox.ts). The fan-out happens
 * here: one delivery row per enabled endpoint subscribed to the type, chosen now, so that an endpoint added
 * later does not receive what happened before it existed, and the worker never has to decide who gets what.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import { isCustomerEvent, TEST_EVENT, type WebhookEventType } from '../../../shared/contract/webhooks';
import type { Executor } from '../../db/client';
import { webhookDeliveries, webhookEndpoints, webhookEvents } from '../../db/schema/index';

export interface NewWebhookEvent {
  type: WebhookEventType;
  /** the customer whose data it is: required for customer events, whose endpoints are that customer's only */
  customerId?: string | null;
  /** one line a person reads in the receiving system */
  summary: string;
  /** ids and short facts; never documents (the receiver fetches those through `links`) */
  data: Record<string, unknown>;
  /** links to the product; a path (`/search?report=…`) is made absolute with the public base URL when sent */
  links?: Record<string, string>;
}

function payloadOf(type: string, e: Pick<NewWebhookEvent, 'summary' | 'data' | 'links'>, at: Date): Record<string, unknown> {
  return { type, timestamp: at.toISOString(), data: { ...e.data, summary: e.summary, links: e.links ?? {} } };
}

/**
 * Writes the event and its deliveries; its id is the `webhook-id` every attempt carries. Null when no
 * endpoint wants it (nothing is written), or for a customer event without its customer.
 */
export async function enqueueWebhookEvent(tx: Executor, event: NewWebhookEvent): Promise<string | null> {
  const forCustomer = isCustomerEvent(event.type);
  const customerId = event.customerId ?? null;
  if (forCustomer && !customerId) return null;
  const audience = forCustomer ? eq(webhookEndpoints.customerId, customerId!) : isNull(webhookEndpoints.customerId);
  const endpoints = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.enabled, true), audience, sql`${event.type} = ANY(${webhookEndpoints.events})`));
  if (endpoints.length === 0) return null;
  const [row] = await tx
    .insert(webhookEvents)
    .values({ type: event.type, customerId: forCustomer ? customerId : null, payload: payloadOf(event.type, event, new Date()) })
    .returning({ id: webhookEvents.id });
  await tx.insert(webhookDeliveries).values(endpoints.map((e) => ({ eventId: row!.id, endpointId: e.id })));
  return row!.id;
}

/** The `webhook.test` event, to one endpoint whatever it subscribes to ("send a test event"). */
export async function enqueueTestEvent(tx: Executor, endpoint: { id: string; customerId: string | null }): Promise<string> {
  const [row] = await tx
    .insert(webhookEvents)
    .values({
      type: TEST_EVENT,
      customerId: endpoint.customerId,
      payload: payloadOf(
        TEST_EVENT,
        { summary: 'A test event: the endpoint and its secret work', data: { endpointId: endpoint.id } },
        new Date(),
      ),
    })
    .returning({ id: webhookEvents.id });
  await tx.insert(webhookDeliveries).values({ eventId: row!.id, endpointId: endpoint.id });
  return row!.id;
}
