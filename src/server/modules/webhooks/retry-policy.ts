/**
 * When a failed delivery is tried again, when it is given up, and when an endpoint is switched off. Pure,
 * so that the schedule can be read and tested apart from the worker (docs/decisions/0066-webhooks.md).
 */

export interface WebhookRetryPolicy {
  /** delay after the first failed attempt; doubles with each further one */
  baseDelayMs: number;
  maxDelayMs: number;
  /** ± this fraction of the delay at random, so that deliveries that failed together do not retry together */
  jitter: number;
  /** no attempt starts later than this after the event: the delivery has failed */
  maxAgeMs: number;
}

/**
 * 30 s, 1, 2, 4, 8, 16, 32 min, 1 h 4 min, 2 h 8 min, then every 4 h (±20%), until 24 hours after the event:
 * about 13 attempts. A receiver back within the hour gets its events within minutes; one down for a day has
 * lost them (the delivery log shows which, and "send a test event" checks it is back).
 */
export const DEFAULT_WEBHOOK_RETRY: WebhookRetryPolicy = {
  baseDelayMs: 30_000,
  maxDelayMs: 4 * 60 * 60_000,
  jitter: 0.2,
  maxAgeMs: 24 * 60 * 60_000,
};

/** Delay before the next attempt after `attempts` failed ones (attempts >= 1). */
export function webhookRetryDelayMs(attempts: number, policy: WebhookRetryPolicy = DEFAULT_WEBHOOK_RETRY, random = Math.random): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, Math.min(40, attempts - 1)));
  return Math.max(0, Math.round(exponential + exponential * policy.jitter * (random() * 2 - 1)));
}

/** The next attempt's time, or null when it would start after the event's last moment: the delivery failed. */
export function nextAttemptAt(eventAt: Date, now: Date, attempts: number, policy: WebhookRetryPolicy = DEFAULT_WEBHOOK_RETRY): Date | null {
  const next = new Date(now.getTime() + webhookRetryDelayMs(attempts, policy));
  return next.getTime() > eventAt.getTime() + policy.maxAgeMs ? null : next;
}

export interface DisableRule {
  /** failed attempts in a row, none delivered between them */
  failures: number;
  /** and failing for at least this long */
  periodMs: number;
}

/**
 * An endpoint that has failed every attempt for a whole day, at least 10 of them, is switched off: it is
 * gone or broken, and each further event would only add a day of retries. Both conditions, so that neither
 * a burst of events during a short outage (many failures in minutes) nor one event retried all day (a
 * single failing delivery) switches it off.
 */
export const DEFAULT_DISABLE_RULE: DisableRule = { failures: 10, periodMs: 24 * 60 * 60_000 };

export function shouldDisable(endpoint: { consecutiveFailures: number; failingSince: Date | null }, now: Date, rule: DisableRule): boolean {
  return (
    endpoint.consecutiveFailures >= rule.failures &&
    endpoint.failingSince !== null &&
    now.getTime() - endpoint.failingSince.getTime() >= rule.periodMs
  );
}
