/** Step 1: every serial of the list looked up, a few at a time, each answered found or not found. */
import { isNotFound, lookupSerial } from '../api';
import type { LookupResult } from './public-types';
import type { SerialList } from './serial-list';

export type LookupRow = { serial: string; found: true; result: LookupResult } | { serial: string; found: false };

/** Parallel lookups at most: the per-IP rate limit counts each one, and a phone's connection is narrow. */
const CONCURRENCY = 4;

/** Looks up each serial of the list; a 404 is "not found", any other failure rejects (shown as an error). */
export async function lookupAll(list: SerialList): Promise<LookupRow[]> {
  const rows: LookupRow[] = new Array<LookupRow>(list.serials.length);
  let next = 0;
  async function worker(): Promise<void> {
    while (next < list.serials.length) {
      const at = next++;
      const serial = list.serials[at]!;
      try {
        rows[at] = { serial, found: true, result: await lookupSerial(serial) };
      } catch (err) {
        if (!isNotFound(err)) throw err;
        rows[at] = { serial, found: false };
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, list.serials.length) }, worker));
  return [...rows, ...list.invalid.map((serial): LookupRow => ({ serial, found: false }))];
}
