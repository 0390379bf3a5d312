import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A random token of `bytes` bytes, base64url (session ids, reset tokens, API keys). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** SHA-256 hex: how tokens are stored, so that a leaked table holds nothing usable. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}
