/**
 * The keys that sign certificates' offline proofs (docs/decisions/0063-offline-verification.md). Ed25519,
 * made on first use like the signing certificate; an admin rotates them (audited). A rotated-out key stays
 * published: every certificate it signed keeps verifying offline and online.
 */
import { createHash, createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { proofClaimsPart, proofHeader, type ProofClaims, type ProofKey } from '../../../shared/offline-proof';
import type { Db, Executor } from '../../db/client';
import { recordAudit, type AuditActor } from '../audit/audit.writer';
import * as repo from './verification-keys.repo';

export const VERIFICATION_KEY_ENTITY = 'verification-key';

export interface PublishedKey extends ProofKey {
  createdAt: string;
  retiredAt: string | null;
}

/**
 * The key id: the first 8 characters of the key's RFC 7638 thumbprint (SHA-256 of its required members in
 * lexicographic order). Short, since it is printed in every QR code; 48 bits never collide among the few
 * keys a company rotates through.
 */
export function keyIdOf(x: string): string {
  const canonical = JSON.stringify({ crv: 'Ed25519', kty: 'OKP', x });
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 8);
}

function newKey(): { kid: string; publicX: string; privatePem: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const publicX = publicKey.export({ format: 'jwk' }).x!;
  return { kid: keyIdOf(publicX), publicX, privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
}

// Parsed private keys by id: PEM parsing for every certificate would cost more than the signature.
const parsed = new Map<string, KeyObject>();

async function currentKey(db: Db): Promise<{ kid: string; privatePem: string }> {
  const current = await repo.currentKey(db);
  if (current) return current;
  await repo.insertKeyIfNone(db, newKey());
  const made = await repo.currentKey(db);
  if (!made) throw new Error('verification key: none current after inserting one');
  return made;
}

async function signingKey(db: Db): Promise<{ kid: string; key: KeyObject }> {
  const current = await currentKey(db);
  let key = parsed.get(current.kid);
  if (!key) {
    key = createPrivateKey(current.privatePem);
    if (parsed.size > 8) parsed.clear();
    parsed.set(current.kid, key);
  }
  return { kid: current.kid, key };
}

/** The compact JWS of `claims`, signed with the current key. */
export async function signProof(db: Db, claims: ProofClaims): Promise<string> {
  const { kid, key } = await signingKey(db);
  const signingInput = `${proofHeader(kid)}.${proofClaimsPart(claims)}`;
  return `${signingInput}.${sign(null, Buffer.from(signingInput), key).toString('base64url')}`;
}

function published(r: repo.PublishedKeyRow): PublishedKey {
  return {
    kty: 'OKP',
    crv: 'Ed25519',
    x: r.publicX,
    kid: r.kid,
    alg: 'EdDSA',
    use: 'sig',
    createdAt: r.createdAt.toISOString(),
    retiredAt: r.retiredAt?.toISOString() ?? null,
  };
}

/** Every key, current and rotated out, oldest first. */
export async function publishedKeys(db: Executor): Promise<PublishedKey[]> {
  return (await repo.listKeys(db)).map(published);
}

/**
 * The keys as published: the first one made if there is none yet, so that a verifier kept offline before the
 * first report already holds the key that report will be signed with.
 */
export async function keysToPublish(db: Db): Promise<PublishedKey[]> {
  await currentKey(db);
  return publishedKeys(db);
}

/** A new current key; the old one is retired and stays published. Audited with both ids. */
export async function rotateKey(db: Db, actor: AuditActor): Promise<PublishedKey[]> {
  const made = newKey();
  return db.transaction(async (tx) => {
    // Two rotations at once: the second waits, then retires the key the first made (without the lock its
    // retiring statement would not see that key, and its own insert would quietly lose).
    await repo.lockRotation(tx);
    const retired = await repo.retireCurrent(tx);
    if (!(await repo.insertKeyIfNone(tx, made))) throw new Error('verification key: a current key remained after retiring it');
    await recordAudit(tx, actor, {
      action: 'update',
      entity: VERIFICATION_KEY_ENTITY,
      entityId: made.kid,
      before: retired ? { current: retired } : null,
      after: { current: made.kid, publicKey: made.publicX },
    });
    return publishedKeys(tx);
  });
}
