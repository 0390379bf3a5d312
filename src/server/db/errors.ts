/** PostgreSQL error codes as both drivers report them (Drizzle wraps driver errors in `cause`). */
export const PG = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  exclusionViolation: '23P01',
  checkViolation: '23514',
  numericOutOfRange: '22003',
  deadlockDetected: '40P01',
  serializationFailure: '40001',
} as const;

export function pgErrorCode(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/**
 * PostgreSQL rolled the transaction back so that another could go on: a deadlock or a serialization
 * failure (class 40). Two overlapping serial ranges inserted at once can deadlock on the exclusion
 * constraint itself, each waiting for the other's uncommitted entry. Doing the same work again then meets
 * the other's outcome (committed or gone) and gives the user's answer.
 */
export function isTransientConflict(err: unknown): boolean {
  const code = pgErrorCode(err);
  return code === PG.deadlockDetected || code === PG.serializationFailure;
}

/**
 * The pause before attempt `attempt + 1`, in ms: 5-20, times the attempt, at random. Started again at once,
 * the rolled-back transaction could take its first lock back before the transaction PostgreSQL let through
 * (already waiting for that lock) had woken to take it, and the two would deadlock again. Random, so that two
 * rolled back together do not meet again.
 */
export const conflictDelayMs = (attempt: number, random = Math.random()): number => attempt * (5 + random * 15);

const conflictPause = (attempt: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, conflictDelayMs(attempt)));

/**
 * `work` (a whole transaction), done again up to `attempts` times in all while it ends in a transient
 * conflict, after `pause(attempt)`.
 */
export async function retryingConflicts<T>(
  work: () => Promise<T>,
  attempts = 3,
  pause: (attempt: number) => Promise<void> = conflictPause,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (attempt >= attempts || !isTransientConflict(err)) throw err;
      await pause(attempt);
    }
  }
}

/** The constraint (or unique index) a violation names, as both drivers report it. */
export function pgConstraint(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const name = (e as { constraint?: unknown }).constraint;
    if (typeof name === 'string') return name;
  }
  return undefined;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids in URLs are checked before they reach SQL, so that `/products/abc` is a 404 rather than a cast error. */
export function isUuid(s: unknown): s is string {
  return typeof s === 'string' && UUID_RE.test(s);
}

/** `%` and `_` typed in a search box are literal characters, not wildcards. */
export function likePattern(q: string): string {
  return `%${withoutNul(q).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** PostgreSQL text cannot hold U+0000; a search for it matches what the rest of the text matches. */
export function withoutNul(s: string): string {
  return s.replaceAll('\u0000', '');
}

/** The largest OFFSET a list asks the database for; a page beyond it is empty without asking. */
export const MAX_OFFSET = 1e12;
