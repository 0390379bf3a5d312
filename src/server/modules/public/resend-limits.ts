/**
 * How often staff may send a request's reports again (docs/decisions/0021-abuse-limits.md): a few times
 * per request, so that no one can flood a customer's inbox from the Searches screen, and a bound per staff
 * member across requests. Only accepted resends count: one at a time per request is already enforced by
 * the service (searches.service.ts), so a burst of clicks is 409, not a spent allowance. Through the app's
 * counter store, in Redis when REDIS_URL is set.
 */
import type { FastifyReply } from 'fastify';
import { AppError } from '../../../shared/errors';
import type { CounterStore } from '../../lib/counters';

const HOUR = 3_600_000;

/** The numbers (mutable only so that a test can reach them in a few requests). */
export const RESEND_LIMITS = {
  perRequest: { max: 3, windowMs: HOUR },
  perStaff: { max: 20, windowMs: HOUR },
};

const requestKey = (id: string) => `resend-request:${id}`;
const staffKey = (userId: string) => `resend-staff:${userId}`;

function refuse(reply: FastifyReply, key: string, max: number, ttlMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
  reply.header('retry-after', String(seconds));
  return new AppError('resource-exhausted', key, { params: { max, minutes: Math.max(1, Math.ceil(seconds / 60)) } });
}

/** Answers 429 (with Retry-After and a message naming the limit) when this resend would pass one. */
export async function checkResendAllowed(store: CounterStore, reply: FastifyReply, requestId: string, userId: string): Promise<void> {
  const { perRequest, perStaff } = RESEND_LIMITS;
  const [byRequest, byStaff] = await Promise.all([store.get(requestKey(requestId)), store.get(staffKey(userId))]);
  if (byRequest.count >= perRequest.max) throw refuse(reply, 'searches.resendLimitRequest', perRequest.max, byRequest.ttlMs);
  if (byStaff.count >= perStaff.max) throw refuse(reply, 'searches.resendLimitStaff', perStaff.max, byStaff.ttlMs);
}

/** Counts an accepted resend against both limits. */
export async function countResend(store: CounterStore, requestId: string, userId: string): Promise<void> {
  await Promise.all([
    store.hit(requestKey(requestId), RESEND_LIMITS.perRequest.windowMs),
    store.hit(staffKey(userId), RESEND_LIMITS.perStaff.windowMs),
  ]);
}
