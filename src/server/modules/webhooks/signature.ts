/**
 * The Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 of `${webhook-id}.${webhook-timestamp}.${body}`,
 * keyed with the bytes of the secret after its `whsec_` prefix (base64). Any receiver library of the
 * specification (the `standardwebhooks` packages) verifies it with the same secret string.
 */
import { createHmac, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

/** A new secret: `whsec_` + base64 of 32 random bytes, the specification's form. */
export function newSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** What lists show of a secret: its last four characters, enough to tell which one a receiver holds. */
export function secretHint(secret: string): string {
  return secret.slice(-4);
}

export function signatureOf(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The headers of one attempt; the timestamp is the attempt's, so a receiver can refuse an old replay. */
export function signedHeaders(secret: string, id: string, body: string, now = new Date()): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureOf(secret, id, timestamp, body),
  };
}
