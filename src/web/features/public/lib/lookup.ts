/**
 * Step 1: every serial of the list looked up, a few at a time, each answered found or not found; a not-found
 * one may come with the existing serial it reads like ("Did you mean BF300-000002?"). Entries that are no
 * serial by the grammar are asked too: "BF300–000002" with an en dash is one such near miss.
 */
import { ApiError } from '../../../lib/api';
import { isNotFound, lookupSerial } from '../api';
import type { LookupAnswerData } from './public-types';
import type { SerialList } from './serial-list';

export type LookupRow = { serial: string; found: true; result: LookupAnswerData } | { serial: string; found: false; suggestion?: string };

function suggestionOf(err: unknown): string | undefined {
  const s = err instanceof ApiError ? err.params?.suggestion : undefined;
  return typeof s === 'string' && s !== '' ? s : undefined;
}

/** Parallel lookups at most: the per-IP rate limit counts each one, and a phone's connection is narrow. */
const CONCURRENCY = 4;

/** Looks up each serial of the list; a 404 is "not found", any other failure rejects (shown as an error). */
export async function lookupAll(list: SerialList): Promise<LookupRow[]> {
  const asked = [...list.serials, ...list.invalid];
  const rows: LookupRow[] = new Array<LookupRow>(asked.length);
  let next = 0;
  async function worker(): Promise<void> {
    while (next < asked.length) {
      const at = next++;
      const serial = asked[at]!;
      try {
        rows[at] = { serial, found: true, result: await lookupSerial(serial) };
      } catch (err) {
        if (!isNotFound(err)) throw err;
        const suggestion = suggestionOf(err);
        rows[at] = suggestion ? { serial, found: false, suggestion } : { serial, found: false };
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, asked.length) }, worker));
  return rows;
}
