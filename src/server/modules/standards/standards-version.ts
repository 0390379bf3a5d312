/**
 * Records already stored follow a change of the standards data: the stored requirement rows name the data
 * they were derived from (standards_state, migration 0022), and at start, when the data files differ, every
 * product's rows are derived again; the records of each product whose rows changed are judged again in the
 * same transaction (syncRequirements), so its certificates are superseded on their next request as after a
 * product edit. Idempotent and run once per change: several instances may run it at once.
 */
import { createHash } from 'node:crypto';
import { asc, eq, gt } from 'drizzle-orm';
import { EDITIONS, REQUIREMENT_DERIVATION_REVISION } from '../../../shared/standards/requirement';
import type { Db } from '../../db/client';
import { products, standardsState } from '../../db/schema/index';
import { syncRequirements } from './requirements.repo';

/** A digest of the standards data and of the derivation's revision: what the stored rows were derived from. */
export const STANDARDS_DATA_VERSION = createHash('sha256')
  .update(JSON.stringify({ revision: REQUIREMENT_DERIVATION_REVISION, editions: EDITIONS }))
  .digest('hex');

export async function storedStandardsVersion(db: Db): Promise<string | null> {
  const [row] = await db.select({ v: standardsState.dataVersion }).from(standardsState).limit(1);
  return row?.v ?? null;
}

/**
 * Derives every product's requirement rows again when the stored data version is not this build's, a batch of
 * products per transaction; answers the ids of the products whose requirement changed (null: already current).
 */
export async function rejudgeOnStandardsChange(db: Db, batch = 200): Promise<string[] | null> {
  if ((await storedStandardsVersion(db)) === STANDARDS_DATA_VERSION) return null;
  const changed: string[] = [];
  let after: string | null = null;
  for (;;) {
    const ids: string[] = (
      await db
        .select({ id: products.id })
        .from(products)
        .where(after === null ? undefined : gt(products.id, after))
        .orderBy(asc(products.id))
        .limit(batch)
    ).map((p) => p.id);
    if (ids.length === 0) break;
    changed.push(...(await db.transaction((tx) => syncRequirements(tx, ids))));
    after = ids[ids.length - 1]!;
  }
  await db.update(standardsState).set({ dataVersion: STANDARDS_DATA_VERSION, updatedAt: new Date() }).where(eq(standardsState.id, true));
  return changed;
}
