/**
 * The ALTCHA proof-of-work, solved in the page (ALTCHA's documented algorithm, as `altcha-lib` verifies
 * it): find the number n ≤ maxnumber for which SHA-256(salt + n), in hex, equals the challenge; the answer
 * is the base64 of a JSON payload naming the challenge, salt, signature and n. The widget package would do
 * the same with a UI and some 30 KB more; this is a few hundred bytes and loads with step 2.
 */

export interface AltchaChallenge {
  algorithm: string;
  challenge: string;
  salt: string;
  signature: string;
  maxnumber?: number;
}

/** Hashes computed in parallel per turn: Web Crypto is asynchronous, so batches keep the page responsive. */
const BATCH = 500;
/** altcha-lib's default when a challenge names no maximum. */
const DEFAULT_MAX = 1_000_000;

const encoder = new TextEncoder();

async function hashHex(algorithm: string, text: string): Promise<string> {
  const digest = await crypto.subtle.digest(algorithm, encoder.encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The number that answers the challenge, or null when none up to maxnumber does (or `signal` aborted). */
export async function findNumber(c: AltchaChallenge, signal?: AbortSignal): Promise<number | null> {
  const algorithm = c.algorithm.toUpperCase();
  const max = c.maxnumber ?? DEFAULT_MAX;
  const target = c.challenge.toLowerCase();
  for (let start = 0; start <= max; start += BATCH) {
    if (signal?.aborted) return null;
    const end = Math.min(max, start + BATCH - 1);
    const hashes = await Promise.all(Array.from({ length: end - start + 1 }, (_, i) => hashHex(algorithm, `${c.salt}${start + i}`)));
    const at = hashes.indexOf(target);
    if (at >= 0) return start + at;
  }
  return null;
}

/** Solves the challenge and returns the payload the server expects in the request's `challenge` field. */
export async function solveChallenge(c: AltchaChallenge, signal?: AbortSignal): Promise<string | null> {
  const started = performance.now();
  const number = await findNumber(c, signal);
  if (number === null) return null;
  const payload = {
    algorithm: c.algorithm,
    challenge: c.challenge,
    number,
    salt: c.salt,
    signature: c.signature,
    took: Math.round(performance.now() - started),
  };
  return btoa(JSON.stringify(payload));
}
