/**
 * Bench API keys (docs/decisions/0008-bench-keys.md): `trc_live_` + 32 random bytes, stored as SHA-256.
 * 256 random bits need no slow hash; the hash is what the unique index finds the bench by.
 */
import { createHash, randomBytes } from 'node:crypto';
import { MACHINE_KEY_PREFIX, MACHINE_KEY_RE, MACHINE_KEY_VISIBLE } from '../../../shared/contract/machines';

export interface NewKey {
  key: string;
  keyPrefix: string;
  keyHash: Buffer;
}

export function hashKey(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

export function newKey(): NewKey {
  const key = MACHINE_KEY_PREFIX + randomBytes(32).toString('base64url');
  return { key, keyPrefix: key.slice(0, MACHINE_KEY_VISIBLE), keyHash: hashKey(key) };
}

/** The key of an `Authorization: Bearer <key>` header, or null when the header is missing or not a key. */
export function bearerKey(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m && MACHINE_KEY_RE.test(m[1]!) ? m[1]! : null;
}
