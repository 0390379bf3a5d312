/**
 * Records stored before their samples took part in the verdict (test_records.sample_reasons NULL with
 * samples: migration 0019) are checked again, a batch at a time, and judged again with what their samples
 * say. Run in the background at start: idempotent, so several instances may run it at once, and a server
 * stopped halfway goes on where it left off at its next start.
 */
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client';
import { sampleVerdict } from '../../../shared/standards/sample-checks';
import { arrayLiteral } from './machine-data.repo';
import { decodeSamples } from './record-codec';

interface Unchecked {
  id: string;
  samples: Uint8Array | null;
  test_pressure: string;
  holding_seconds: number;
}

/** Checks up to `batch` records; answers how many it checked (0: none is left). */
export async function recheckSampleBatch(db: Db, batch = 2000): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = rowsOf<Unchecked>(
      await tx.execute(sql`SELECT id::text, samples, test_pressure::text, holding_seconds FROM test_records
        WHERE sample_count > 0 AND sample_reasons IS NULL ORDER BY id LIMIT ${batch} FOR UPDATE SKIP LOCKED`),
    );
    if (rows.length === 0) return 0;
    const checked = rows.map((r) => sampleVerdict(decodeSamples(r.samples), Number(r.test_pressure), r.holding_seconds));
    const ids = arrayLiteral(rows.map((r) => r.id));
    await tx.execute(sql`UPDATE test_records t SET held_seconds = u.held, sample_reasons = u.reasons
      FROM unnest(${ids}::bigint[], ${arrayLiteral(checked.map((c) => c.heldSeconds))}::numeric[],
        ${arrayLiteral(checked.map((c) => c.reasons ?? 0))}::smallint[]) AS u (id, held, reasons)
      WHERE t.id = u.id`);
    await tx.execute(sql`SELECT test_records_judge(NULL, NULL, NULL, NULL, NULL, ${ids}::bigint[])`);
    return rows.length;
  });
}

/** Checks every record left unchecked; answers how many. */
export async function recheckStoredSamples(db: Db, batch = 2000): Promise<number> {
  let total = 0;
  for (let n = await recheckSampleBatch(db, batch); n > 0; n = await recheckSampleBatch(db, batch)) total += n;
  return total;
}
