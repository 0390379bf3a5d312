/**
 * Webhooks (`/api/v1/webhooks`; administrators only): endpoints that receive the product's events signed as
 * the Standard Webhooks specification says. A staff endpoint receives staff events; a customer's endpoint
 * receives only that customer's events (docs/decisions/0066-webhooks.md).
 */
import { z } from 'zod';
import { envelope, listEnvelope, MSG, optionalText, PAGE_SIZES } from './common';

/** Events of the manufacturer's own systems (quality alerts, disagreements between bench and judgement). */
export const STAFF_EVENTS = ['alert.raised', 'alert.acknowledged', 'record.disagreement'] as const;
/** Events about a customer's order: sent only to that customer's endpoints. */
export const CUSTOMER_EVENTS = ['certificate.issued', 'certificate.superseded', 'unit.held', 'delivery.released'] as const;
export const WEBHOOK_EVENTS = [...STAFF_EVENTS, ...CUSTOMER_EVENTS] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];
/** Sent by "send a test event" to one endpoint; no endpoint subscribes to it. */
export const TEST_EVENT = 'webhook.test';

export const WEBHOOK_URL_MAX = 2048;
export const WEBHOOK_DESCRIPTION_MAX = 500;

export function isCustomerEvent(type: string): boolean {
  return (CUSTOMER_EVENTS as readonly string[]).includes(type);
}

/** http or https, with a host, without a user name or password (which would travel in every request's log). */
function urlShapeOk(v: string): boolean {
  try {
    const u = new URL(v);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname !== '' && !u.username && !u.password;
  } catch {
    return false;
  }
}

const urlField = () =>
  z
    .string({ error: MSG.required })
    .trim()
    .min(1, { error: MSG.required, abort: true })
    .max(WEBHOOK_URL_MAX, { error: MSG.tooLong, abort: true })
    .refine(urlShapeOk, { error: 'webhooks.validation.url' });

const eventsField = () =>
  z
    .array(z.enum(WEBHOOK_EVENTS, { error: 'webhooks.validation.unknownEvent' }), { error: 'webhooks.validation.eventsRequired' })
    .min(1, { error: 'webhooks.validation.eventsRequired' })
    .max(WEBHOOK_EVENTS.length * 2, { error: MSG.tooLong })
    .transform((list) => [...new Set(list)]);

// The form's customer select gives '' for "staff systems": the same as none.
const customerField = () =>
  z
    .union([z.uuid(), z.literal(''), z.null()], { error: 'webhooks.validation.customer' })
    .optional()
    .transform((v) => v || null);

const fields = {
  url: urlField(),
  events: eventsField(),
  customerId: customerField(),
  description: optionalText(WEBHOOK_DESCRIPTION_MAX),
  enabled: z.boolean({ error: MSG.invalid }).default(true),
};

/**
 * A customer's endpoint takes customer events only, a staff endpoint staff events only: a customer's system
 * must never receive the manufacturer's internal alerts, and a staff endpoint has no customer to filter by.
 */
export function eventsMatchAudience(v: { events: readonly string[]; customerId: string | null }, ctx: z.RefinementCtx) {
  const wrong = v.events.findIndex((e) => isCustomerEvent(e) !== (v.customerId !== null));
  if (wrong >= 0) {
    ctx.addIssue({
      code: 'custom',
      path: ['events', wrong],
      message: v.customerId ? 'webhooks.validation.staffEventForCustomer' : 'webhooks.validation.customerEventNeedsCustomer',
    });
  }
}

export const webhookInput = z.object(fields).superRefine(eventsMatchAudience);
export type WebhookInput = z.input<typeof webhookInput>;
export type WebhookValues = z.output<typeof webhookInput>;

/** A change: any of the fields; the whole endpoint after it is checked again with webhookInput's rules. */
export const webhookUpdateInput = z.object({
  url: urlField().optional(),
  events: eventsField().optional(),
  // Absent: unchanged; '' or null: a staff endpoint from now on.
  customerId: z.union([z.uuid(), z.literal(''), z.null()], { error: 'webhooks.validation.customer' }).optional(),
  description: optionalText(WEBHOOK_DESCRIPTION_MAX).optional(),
  enabled: z.boolean({ error: MSG.invalid }).optional(),
});
export type WebhookUpdateInput = z.input<typeof webhookUpdateInput>;
export type WebhookUpdateValues = z.output<typeof webhookUpdateInput>;

export const webhookEndpoint = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.string()),
  customerId: z.string().nullable(),
  customerName: z.string().nullable(),
  enabled: z.boolean(),
  disabledReason: z.string().nullable(),
  disabledAt: z.string().nullable(),
  /** the secret's last four characters, to tell which one a receiver holds; the secret itself is never answered again */
  secretHint: z.string(),
  consecutiveFailures: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpoint>;
export const webhookEnvelope = envelope(webhookEndpoint);
export const webhookListEnvelope = envelope(z.array(webhookEndpoint));

/** Creation and rotation: the secret, this once. */
export const webhookWithSecretEnvelope = envelope(webhookEndpoint.extend({ secret: z.string() }));
export type WebhookWithSecret = WebhookEndpoint & { secret: string };

export const webhookAttempt = z.object({
  id: z.number().int(),
  eventId: z.string(),
  eventType: z.string(),
  attempt: z.number().int(),
  statusCode: z.number().int().nullable(),
  durationMs: z.number().int(),
  error: z.string().nullable(),
  responseBody: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookAttempt = z.infer<typeof webhookAttempt>;
export const webhookAttemptsEnvelope = listEnvelope(webhookAttempt);

export const webhookAttemptsQuery = z.object({
  page: z.coerce.number({ error: MSG.invalid }).int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce
    .number({ error: 'validation.oneOf' })
    .pipe(
      z.union(
        PAGE_SIZES.map((n) => z.literal(n)),
        { error: 'validation.oneOf' },
      ),
    )
    .default(20),
});

export const webhookTestEnvelope = envelope(z.object({ eventId: z.string() }));
