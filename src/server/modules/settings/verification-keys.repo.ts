/** The offline proofs' keys (migration 0042). The private key is read only by `currentKey`, to sign. */
import { asc, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { verificationKeysTable as keys } from '../../db/schema';

export interface PublishedKeyRow {
  kid: string;
  publicX: string;
  createdAt: Date;
  retiredAt: Date | null;
}

export async function listKeys(db: Executor): Promise<PublishedKeyRow[]> {
  return db
    .select({ kid: keys.kid, publicX: keys.publicX, createdAt: keys.createdAt, retiredAt: keys.retiredAt })
    .from(keys)
    .orderBy(asc(keys.createdAt), asc(keys.kid));
}

export async function currentKey(db: Executor): Promise<{ kid: string; privatePem: string } | null> {
  const [row] = await db.select({ kid: keys.kid, privatePem: keys.privatePem }).from(keys).where(isNull(keys.retiredAt));
  return row ?? null;
}

/** Adds a current key unless one exists (the partial unique index decides between two instances). */
export async function insertKeyIfNone(db: Executor, v: { kid: string; publicX: string; privatePem: string }): Promise<boolean> {
  const rows = await db.insert(keys).values(v).onConflictDoNothing().returning({ kid: keys.kid });
  return rows.length > 0;
}

/** Retires the current key; answers its id, or null when there was none. */
export async function retireCurrent(db: Executor): Promise<string | null> {
  const rows = await db
    .update(keys)
    .set({ retiredAt: sql`now()` })
    .where(isNull(keys.retiredAt))
    .returning({ kid: keys.kid });
  return rows[0]?.kid ?? null;
}

/** Serialises rotations (held to the end of the transaction). */
export async function lockRotation(db: Executor): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(7347006)`);
}
