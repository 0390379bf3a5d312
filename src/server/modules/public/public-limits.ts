/**
 * Rate limits of the public endpoints (docs/product.md §4: per IP, per recipient and per serial, so that the
 * search can be used neither to spam people nor to scrape the catalogue). Per IP through
 * @fastify/rate-limit's route option; per recipient and per serial, which are only known once the body is
 * read, through the app's counter store. Both live in Redis when REDIS_URL is set, so every instance
 * shares them.
 */
import type { FastifyReply } from 'fastify';
import { AppError } from '../../../shared/errors';
import type { CounterStore } from '../../lib/counters';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The numbers (mutable only so that a benchmark can measure the route without tripping them). */
export const PUBLIC_LIMITS = {
  /** a person typing serials: one every second or so, sustained for a minute */
  lookupPerIp: { max: 60, timeWindow: MINUTE },
  /** one serial looked up again and again by one client is a script, not a person holding the valve */
  lookupPerSerial: { max: 30, windowMs: MINUTE },
  challengePerIp: { max: 30, timeWindow: MINUTE },
  /** report requests (each may carry 20 serials) from one address */
  requestPerIp: { max: 10, timeWindow: 15 * MINUTE },
  /** serials named in report requests from one address: each may cost a report to render and sign */
  requestSerialsPerIp: { max: 100, windowMs: 15 * MINUTE },
  /** emails to one inbox (lib/email-address.ts inboxKey): enough for a buyer receiving a shipment, too few to flood it */
  requestPerRecipient: { max: 5, windowMs: HOUR },
  /** reports of one serial asked for by one client; counted per client so that no one can spend it for everyone */
  requestPerSerial: { max: 10, windowMs: HOUR },
  /** a delivery link's index and ZIP: a buyer opens a few; a script guessing tokens is slowed down */
  deliveryPerIp: { max: 60, timeWindow: MINUTE },
};

/**
 * @fastify/rate-limit's options for a public route: `rule`, without the X-RateLimit-* headers on answers that
 * are within it. The visitor's page never reads them, a scraper pacing itself would, and each is one more
 * header on every lookup (docs/decisions/0036). A refused request still says when to come back (429 with
 * Retry-After and the X-RateLimit-* headers).
 */
export function quietRateLimit(rule: { max: number; timeWindow: number }) {
  return {
    ...rule,
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
  };
}

/**
 * Counts `cost` hits (one by default) on each key; when any is over its limit, answers 429 with Retry-After (the longest wait
 * among the exceeded keys). Every key is counted, exceeded or not, so that a refused request still counts.
 */
export async function limitKeys(
  store: CounterStore,
  reply: FastifyReply,
  keys: string[],
  rule: { max: number; windowMs: number },
  cost = 1,
): Promise<void> {
  // One key (the lookup's, on every request) without the array and Promise.all of several.
  const states =
    keys.length === 1
      ? [await store.hit(`public:${keys[0]}`, rule.windowMs, cost)]
      : await Promise.all(keys.map((k) => store.hit(`public:${k}`, rule.windowMs, cost)));
  const over = states.filter((s) => s.count > rule.max);
  if (over.length === 0) return;
  const seconds = Math.max(1, Math.ceil(Math.max(...over.map((s) => s.ttlMs)) / 1000));
  reply.header('retry-after', String(seconds));
  // The limit by its name in PUBLIC_LIMITS, which the message says (lib/limit-wait.ts).
  const limit = Object.entries(PUBLIC_LIMITS).find(([, r]) => r === rule)?.[0];
  throw new AppError('resource-exhausted', 'errors.tooManyRequests', { params: { seconds, ...(limit ? { limit } : {}) } });
}
