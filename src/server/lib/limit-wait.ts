/**
 * The wait of a refused request (429) as a person reads it: minutes, or hours past an hour and a half,
 * rounded up (never "3219 seconds"), and which limit was hit. The error handler adds both as parameters
 * (`wait`, `limit`) of the rate-limit messages, in the request's language, from the `seconds` the throwing
 * code gives and the limit it names (`limit`: a key of `limits.hit`; the sender's address when none).
 */
import { hasKey, translate, type Language } from '../../shared/i18n/index';

/** The messages that say a wait. */
export const WAIT_MESSAGES: ReadonlySet<string> = new Set(['errors.tooManyRequests', 'errors.tooManyLoginAttempts']);

export function waitText(language: Language, seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  if (minutes <= 90) return translate(language, minutes === 1 ? 'limits.wait.minute' : 'limits.wait.minutes', { count: minutes });
  const hours = Math.ceil(minutes / 60);
  return translate(language, 'limits.wait.hours', { count: hours });
}

/** `params` of a wait message with `wait` and `limit` worded in `language`; other messages' params as they are. */
export function withWait(
  language: Language,
  key: string,
  params: Record<string, string | number> | undefined,
): Record<string, string | number> | undefined {
  if (!WAIT_MESSAGES.has(key) || typeof params?.seconds !== 'number') return params;
  const named = typeof params.limit === 'string' && hasKey(`limits.hit.${params.limit}`) ? params.limit : 'address';
  return { ...params, wait: waitText(language, params.seconds), limit: translate(language, `limits.hit.${named}`) };
}
