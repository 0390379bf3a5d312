/**
 * Password hashing (Argon2id, OWASP's recommended parameters) and the refusal of the commonest passwords.
 */
import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { AppError } from '../../shared/errors';

// OWASP Password Storage Cheat Sheet: m=19 MiB, t=2, p=1 is the minimum recommended for Argon2id.
// Algorithm is an ambient const enum, unusable as a value under isolatedModules; 2 is Argon2id.
const ARGON2_OPTIONS = { algorithm: 2 as Algorithm, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

// An unknown e-mail is checked against this hash, so that a failed sign-in costs the same time whether or
// not the account exists (no account enumeration by timing). Made once, lazily, with the real parameters.
let dummyHash: Promise<string> | undefined;

function getDummyHash(): Promise<string> {
  dummyHash ??= hashPassword('not-a-real-password-but-the-same-cost');
  return dummyHash;
}

/** Makes the dummy hash ahead of time, so the first unknown e-mail is not slower than the rest. */
export function prepareDummyHash(): void {
  void getDummyHash();
}

/** True when `password` matches `stored`; a missing or malformed hash is a mismatch, never a throw. */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored) {
    await verify(await getDummyHash(), password).catch(() => false);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

let common: Promise<Set<string>> | undefined;

// zxcvbn-ts's frequency list of leaked passwords (about 49,000 entries); loaded on first use only, since
// most requests never set a password.
function commonPasswords(): Promise<Set<string>> {
  common ??= import('@zxcvbn-ts/language-common').then((m) => new Set(m.dictionary['passwords-common'].map((p) => p.toLowerCase())));
  return common;
}

export async function isCommonPassword(password: string): Promise<boolean> {
  return (await commonPasswords()).has(password.toLowerCase());
}

/** Throws a field error on `field` when the password is one of the commonest; length is the contract's job. */
export async function assertPasswordAcceptable(password: string, field = 'password'): Promise<void> {
  if (await isCommonPassword(password)) {
    throw new AppError('invalid-argument', 'errors.invalidRequest', {
      fields: [{ field, key: 'validation.passwordTooCommon' }],
    });
  }
}

/** A strong random password for the admin CLI: 20 characters from an unambiguous alphabet (~114 bits). */
export function generatePassword(length = 20): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  const bytes = new Uint32Array(length);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}
