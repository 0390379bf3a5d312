/**
 * Step 1 of the public page: a serial → its product summary, or "Serial Number Not Found". Answers come
 * from a bounded cache (lookup-cache.ts) when they can; a lookup that finds nothing is recorded as a
 * search request (PRODUCT.md §3: not-found ones are recorded too), after the answer, so that the record
 * costs the visitor nothing.
 */
import { randomUUID } from 'node:crypto';
import type { LookupResult } from '../../../shared/contract/public';
import type { Language } from '../../../shared/i18n/index';
import type { Db, Executor } from '../../db/client';
import { findRangeBySerial } from '../serials/serials.service';
import { clipUserAgent, insertSearchRequests } from '../searches/searches.repo';
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
      fluid: p.fluid,
      connection: p.connection,
      application: p.application,
      applicationMedium: p.applicationMedium,
      pressureFc: p.pressureFc,
      pressureWcb: p.pressureWcb,
      pressureSus: p.pressureSus,
      temperatureMax: p.temperatureMax,
      temperatureMin: p.temperatureMin,
    },
    productionDate: range.productionDate,
    range: { startSerial: range.startSerial, endSerial: range.endSerial },
  };
}

/** Size and staleness of each instance's cache (mutable only so that a benchmark can measure it off). */
export const LOOKUP_CACHE = { maxEntries: 20_000, maxStalenessMs: 1_000 };

export class LookupService {
  readonly cache: LookupCache<Omit<LookupResult, 'serial'> | null>;

  constructor(private readonly db: Db) {
    this.cache = new LookupCache(db, { ...LOOKUP_CACHE });
  }

  /** `serial` is already normalised (the contract does it). */
  async lookup(serial: string): Promise<LookupResult | null> {
    const found = await this.cache.get(serial, async () => {
      const r = await readLookup(this.db, serial);
      if (!r) return null;
      const { serial: _s, ...rest } = r;
      return rest;
    });
    return found ? { serial, ...found } : null;
  }
}

/** Records a lookup that found nothing: serial, language, client IP and user agent (no address: none was given). */
export async function recordNotFoundLookup(db: Executor, serial: string, meta: VisitorMeta): Promise<void> {
  const id = randomUUID();
  await insertSearchRequests(db, [
    {
      id,
      groupId: id,
      source: 'lookup',
      serial,
      language: meta.language,
      status: 'not-found',
      clientIp: meta.ip,
      userAgent: clipUserAgent(meta.userAgent),
    },
  ]);
}
