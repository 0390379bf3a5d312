/**
 * The demo's authorised inspector releases the ranges its 3.1 order ships from (decision 0052), as the
 * manufacturer's QA manager would before the deliveries go out; the other ranges are left for a user marked
 * as an inspector to release from the Serial Numbers screen.
 */
import { parseSerial } from '../../shared/serial';
import type { Db } from '../db/client';
import type { AuditActor } from '../modules/audit/audit.writer';
import { storeRelease } from '../modules/reports/range-release.service';
import { findRangeHolding, type RangeRow } from '../modules/serials/serials.service';

/** The demo's inspector has no account: the name and title of the demo company's QA manager. */
export const DEMO_INSPECTOR = { id: null, name: 'Lin Mei-Hua', title: 'QA Manager' };

export async function releaseRangesOf(db: Db, actor: AuditActor, serials: readonly string[]): Promise<void> {
  const ranges = new Map<string, RangeRow>();
  for (const s of serials) {
    const held = await findRangeHolding(db, parseSerial(s)!);
    if (held) ranges.set(held.range.id, held.range);
  }
  for (const range of ranges.values()) await storeRelease(db, actor, range, DEMO_INSPECTOR);
}
