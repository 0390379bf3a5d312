/**
 * The self-hosted proof-of-work of the report request (ALTCHA, the v1 challenge format that the /search
 * page solves: find n with SHA-256(salt + n) = challenge). The HMAC key is made once and kept in the
 * database, so every instance signs and checks with the same key. A challenge expires after
 * POW_EXPIRES_MS and is accepted once: its signature is inserted into pow_used, whose primary key turns
 * "first use" into one atomic INSERT … ON CONFLICT DO NOTHING, on any instance.
 */
import { randomBytes } from 'node:crypto';
import { createChallenge, extractParams, verifySolution } from 'altcha-lib/v1';
import { lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { PowChallenge } from '../../../shared/contract/public';
import { AppError } from '../../../shared/errors';
import type { Db } from '../../db/client';
import { powSecrets, powUsed } from '../../db/schema/index';

/** Numbers a visitor's browser may have to try: about 25,000 SHA-256 hashes on average, well under a second. */
export const POW_MAX_NUMBER = 50_000;
export const POW_EXPIRES_MS = 5 * 60_000;
const SECRET_NAME = 'altcha-hmac-key';
const ALGORITHM = 'SHA-256';

/** The payload the page sends: base64 of this JSON (ALTCHA's v1 payload). */
const payloadSchema = z.object({
  algorithm: z.literal(ALGORITHM),
  challenge: z.string().regex(/^[0-9a-f]{64}$/),
  number: z.number().int().min(0).max(POW_MAX_NUMBER),
  salt: z.string().max(200),
  signature: z.string().regex(/^[0-9a-f]{64}$/),
});

export class ProofOfWork {
  private key: string | null = null;
  private lastPrune = 0;

  constructor(private readonly db: Db) {}

  /** The shared HMAC key: made by the first instance that needs it, read by every other one. */
  private async hmacKey(): Promise<string> {
    if (this.key) return this.key;
    await this.db
      .insert(powSecrets)
      .values({ name: SECRET_NAME, value: randomBytes(32).toString('hex') })
      .onConflictDoNothing();
    const [row] = await this.db
      .select({ value: powSecrets.value })
      .from(powSecrets)
      .where(sql`${powSecrets.name} = ${SECRET_NAME}`);
    this.key = row!.value;
    return this.key;
  }

  async challenge(): Promise<PowChallenge> {
    const c = await createChallenge({
      algorithm: ALGORITHM,
      hmacKey: await this.hmacKey(),
      maxnumber: POW_MAX_NUMBER,
      expires: new Date(Date.now() + POW_EXPIRES_MS),
    });
    return {
      algorithm: c.algorithm,
      challenge: c.challenge,
      maxnumber: c.maxnumber ?? POW_MAX_NUMBER,
      salt: c.salt,
      signature: c.signature,
    };
  }

  /**
   * Checks a solved challenge and uses it up, or throws a 400 saying what is wrong (invalid, expired,
   * already used). Done before, not inside, the request's transaction: of many replays only one goes on
   * to the costly part (issuing reports). A request that fails later has spent its challenge; the page
   * simply solves a new one.
   */
  async consume(encoded: string): Promise<void> {
    const payload = decode(encoded);
    if (!payload || !(await verifySolution(payload, await this.hmacKey(), false))) {
      throw new AppError('invalid-argument', 'publicApi.challengeInvalid', {
        fields: [{ field: 'challenge', key: 'publicApi.challengeInvalid' }],
      });
    }
    // The salt is covered by the signed challenge hash, so its expiry cannot be altered.
    const expiresAt = Number(extractParams(payload).expires) * 1000;
    if (!Number.isFinite(expiresAt) || expiresAt < Date.now()) {
      throw new AppError('invalid-argument', 'publicApi.challengeExpired', {
        fields: [{ field: 'challenge', key: 'publicApi.challengeExpired' }],
      });
    }
    const used = await this.db
      .insert(powUsed)
      .values({ id: payload.signature, expiresAt: new Date(expiresAt) })
      .onConflictDoNothing()
      .returning({ id: powUsed.id });
    if (used.length === 0) {
      throw new AppError('invalid-argument', 'publicApi.challengeUsed', {
        fields: [{ field: 'challenge', key: 'publicApi.challengeUsed' }],
      });
    }
    await this.prune();
  }

  /** Forgets expired challenges, at most once a minute per instance: they can no longer be replayed. */
  private async prune(): Promise<void> {
    if (Date.now() - this.lastPrune < 60_000) return;
    this.lastPrune = Date.now();
    await this.db.delete(powUsed).where(lt(powUsed.expiresAt, sql`now()`));
  }
}

function decode(encoded: string): z.infer<typeof payloadSchema> | null {
  try {
    const parsed = payloadSchema.safeParse(JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
