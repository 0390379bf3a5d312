/**
 * When a failed send is tried again, and which failures are not worth trying again. Pure functions,
 * so the policy can be read and tested apart from the worker.
 */
import { maskEmailsIn } from '../lib/email-address';

export interface RetryPolicy {
  /** delay after the first failed attempt; doubles with each further one */
  baseDelayMs: number;
  maxDelayMs: number;
  /** ± this fraction of the delay at random, so that instances that failed together do not retry together */
  jitter: number;
}

/**
 * 1, 2, 4, 8, 16 min (±20%) between the six attempts the outbox table allows by default: a message
 * fails about half an hour after its first attempt. The first interval is well above the SMTP timeouts
 * (transports.ts), so a timed-out attempt has ended before the next one starts.
 */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  baseDelayMs: 60_000,
  maxDelayMs: 60 * 60_000,
  jitter: 0.2,
};

/** Delay before the next attempt, after `attempts` attempts have failed (attempts >= 1). */
export function retryDelayMs(attempts: number, policy: RetryPolicy = DEFAULT_RETRY_POLICY, random = Math.random): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempts - 1));
  const spread = exponential * policy.jitter * (random() * 2 - 1);
  return Math.max(0, Math.round(exponential + spread));
}

export interface SendFailure {
  permanent: boolean;
  /** short text for last_error: code, SMTP reply, with any address in it masked */
  message: string;
}

interface NodemailerLikeError {
  code?: string;
  originalCode?: string;
  responseCode?: number;
  message?: string;
}

// The message itself is unacceptable (bad address, cannot be composed): another attempt gets the same.
const PERMANENT_CODES = new Set(['EENVELOPE', 'EMESSAGE', 'EMAXRECIPIENTS']);
// A rejected login is the server's configuration, not the message: retry, so that fixing SMTP_URL within
// the retry window still delivers what was queued meanwhile.
const CONFIGURATION_CODES = new Set(['EAUTH', 'ENOAUTH', 'EOAUTH2']);

/**
 * SMTP 5xx replies (except 503, a session-state complaint) and malformed envelopes are permanent;
 * 4xx replies, refused/reset/timed-out connections, TLS and DNS trouble, and anything unknown are
 * temporary, bounded by the row's max_attempts.
 */
export function classifySendError(err: unknown): SendFailure {
  const e = (err ?? {}) as NodemailerLikeError;
  const code = e.code ?? e.originalCode;
  // A bounce quotes the recipient ("550 5.1.1 <jane@…>"); staff read last_error, so the address is masked
  // before it is stored or logged (docs/decisions/0021-abuse-limits.md).
  const text = maskEmailsIn((e.message ?? String(err)).replace(/\s+/g, ' ').trim());
  const message = (code && !text.startsWith(code) ? `${code}: ${text}` : text).slice(0, 1000);
  if (code && CONFIGURATION_CODES.has(code)) return { permanent: false, message };
  if (typeof e.responseCode === 'number') {
    const permanent = e.responseCode >= 500 && e.responseCode < 600 && e.responseCode !== 503;
    return { permanent, message };
  }
  return { permanent: code !== undefined && PERMANENT_CODES.has(code), message };
}
