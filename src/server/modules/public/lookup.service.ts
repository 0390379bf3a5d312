/**
 * Step 1 of the public page: a serial → its product summary, or "Serial Number Not Found". Answers come
 * from a bounded cache (lookup-cache.ts) when they can; a lookup that finds nothing is recorded as a
 * search request (docs/product.md §3: not-found ones are recorded too), after the answer and in batches, so
 * that the record costs the visitor nothing.
 */
import { randomUUID } from 'node:crypto';
import { envelope } from '../../../shared/contract/common';
import { lookupResult, type LookupResult } from '../../../shared/contract/public';
import type { Language } from '../../../shared/i18n/index';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Executor } from '../../db/client';
import type { NewSearchRequest } from '../../db/schema/index';
import type { AfterResponse } from '../../lib/after-response';
import { findRangeBySerial, findSerialSpeltLike, serialWidths } from '../serials/serials.service';
import { clipUserAgent, insertNotFoundLookups } from './searches.repo';
import { LookupCache } from './lookup-cache';

export interface VisitorMeta {
  ip: string;
  userAgent?: string;
  language: Language;
}

/** The summary a visitor sees for a serial (no ids, no counts): read straight from the database. */
export async function readLookup(db: Executor, serial: string): Promise<LookupResult | null> {
  const hit = await findRangeBySerial(db, serial);
  if (!hit) return null;
  const { product: p, range } = hit;
  return {
    serial,
    product: {
      name: p.name,
      nameZh: p.nameZh,
      fluid: p.fluid,
      connection: p.connection,
      application: p.application,
      applicationMedium: p.applicationMedium,
      connectionZh: p.connectionZh,
      applicationZh: p.applicationZh,
      applicationMediumZh: p.applicationMediumZh,
      pressureFc: p.pressureFc,
      pressureWcb: p.pressureWcb,
      pressureSus: p.pressureSus,
      temperatureMax: p.temperatureMax,
      temperatureMin: p.temperatureMin,
      gtin: p.gtin,
    },
    // Not the range's start and end: a lookup answers about the serial asked, not which others exist.
    productionDate: range.productionDate,
  };
}

/** Size and staleness of each instance's cache (mutable only so that a benchmark can measure it off). */
export const LOOKUP_CACHE = { maxEntries: 20_000, maxStalenessMs: 1_000 };

/** The lookup's 200 answer, `{ data: LookupResult }`. */
export const lookupAnswer = envelope(lookupResult);

export class LookupService {
  /** serial → the 200 answer's body, checked against lookupAnswer and serialised once; null: not found */
  readonly cache: LookupCache<string | null>;
  /** typed text that found nothing → the existing serial it reads like, or null */
  readonly nearMisses: LookupCache<string | null>;

  constructor(private readonly db: Db) {
    this.cache = new LookupCache(db, { ...LOOKUP_CACHE });
    this.nearMisses = new LookupCache(db, { ...LOOKUP_CACHE });
  }

  /**
   * For a serial that was not found: the existing serial it reads like but for its separators ("Did you
   * mean BF300-000002?"), or null. It tells only that the suggested serial exists, which its own lookup
   * would; the product and the rest take that lookup (and its limits).
   */
  async nearMiss(serial: string): Promise<string | null> {
    const found = await this.nearMisses.get(serial, () =>
      findSerialSpeltLike(this.db, serial, () => this.nearMisses.keepWithEntries('widths', () => serialWidths(this.db))),
    );
    return found === serial ? null : found;
  }

  /**
   * The JSON body of the 200 answer for `serial` (already normalised: the contract does it), or null when no
   * range holds it. Kept as text: a cached answer is sent as it is, without being checked against the
   * response schema and serialised again on every request (it was when it was read).
   */
  async answer(serial: string): Promise<string | null> {
    return this.cache.get(serial, async () => {
      const r = await readLookup(this.db, serial);
      return r ? JSON.stringify(lookupAnswer.parse({ data: r })) : null;
    });
  }
}

/** A lookup that found nothing, as recorded: serial, language, client IP and user agent (no address). */
export function notFoundLookupRow(serial: string, meta: VisitorMeta): NewSearchRequest {
  const id = randomUUID();
  return {
    id,
    groupId: id,
    source: 'lookup',
    serial,
    language: meta.language,
    status: 'not-found',
    clientIp: meta.ip,
    userAgent: clipUserAgent(meta.userAgent),
  };
}

/** How long not-found lookups wait to be written together, and the most kept waiting. */
const BATCH_DELAY_MS = 200;
const MAX_WAITING = 10_000;

/**
 * Writes not-found lookups in batches, after the answers: one INSERT (and one commit) per 200 ms instead of
 * one per lookup, so that a burst of misses (a visitor mistyping, a scraper) does not queue a commit per
 * request in front of the lookups themselves. Beyond MAX_WAITING rows (the database far behind) further
 * ones are dropped and counted in the log rather than held in memory without bound.
 */
export class NotFoundRecorder {
  private waiting: NewSearchRequest[] = [];
  private scheduled = false;
  private dropped = 0;

  constructor(
    private readonly db: Executor,
    private readonly afterResponse: AfterResponse,
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
  ) {}

  record(serial: string, meta: VisitorMeta): void {
    if (this.waiting.length >= MAX_WAITING) {
      this.dropped++;
      return;
    }
    this.waiting.push(notFoundLookupRow(serial, meta));
    if (this.scheduled) return;
    this.scheduled = true;
    // Through afterResponse, so that closing the app (and a test) waits for the batch to be written.
    this.afterResponse.run('recording not-found lookups', async () => {
      await new Promise((r) => setTimeout(r, BATCH_DELAY_MS));
      this.scheduled = false;
      await this.flush();
    });
  }

  async flush(): Promise<void> {
    const rows = this.waiting;
    this.waiting = [];
    if (this.dropped) {
      this.log.warn({ dropped: this.dropped }, 'not-found lookups not recorded: too many waiting');
      this.dropped = 0;
    }
    for (let i = 0; i < rows.length; i += 1000) await insertNotFoundLookups(this.db, rows.slice(i, i + 1000));
  }
}
