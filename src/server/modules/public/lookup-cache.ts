/**
 * A bounded cache of recent public lookup answers (serial → its answer, or "not found"), so that the
 * hottest public route usually answers without a database round trip.
 *
 * Invalidation on every instance: each statement that writes products or serial ranges appends a row to
 * catalogue_changes (migration 0006). The cache re-reads (count, max id) of that table at most once per
 * `maxStalenessMs`; when it differs, every entry goes. An answer is only stored when no change was seen
 * while it was being read, so an entry is never older than the version it is kept under. A change made on
 * any instance thus reaches every cache within maxStalenessMs (one second by default).
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/client';

export interface LookupCacheOptions {
  /** entries kept; the least recently used goes first */
  maxEntries?: number;
  /** how long an answer may be served after a change elsewhere */
  maxStalenessMs?: number;
  now?: () => number;
}

/** catalogue_changes is pruned to this many rows (older than an hour) so that counting it stays cheap. */
const PRUNE_ABOVE = 10_000;

export class LookupCache<V> {
  private readonly entries = new Map<string, V>();
  /** values the entries are computed from (keepWithEntries), emptied with them */
  private readonly inputs = new Map<string, unknown>();
  private readonly maxEntries: number;
  private readonly maxStalenessMs: number;
  private readonly now: () => number;
  private version: string | null = null;
  private checkedAt = -Infinity;
  private checking: Promise<void> | null = null;
  hits = 0;
  misses = 0;

  constructor(
    private readonly db: Db,
    options: LookupCacheOptions = {},
  ) {
    this.maxEntries = options.maxEntries ?? 20_000;
    this.maxStalenessMs = options.maxStalenessMs ?? 1_000;
    this.now = options.now ?? Date.now;
  }

  /** The cached answer for `key`, or `load()`'s, kept for next time. */
  async get(key: string, load: () => Promise<V>): Promise<V> {
    if (this.now() - this.checkedAt >= this.maxStalenessMs) await this.check();
    if (this.entries.has(key)) {
      const value = this.entries.get(key) as V;
      // Map order is insertion order: moving a hit to the end makes the first entry the least recently used.
      this.entries.delete(key);
      this.entries.set(key, value);
      this.hits++;
      return value;
    }
    this.misses++;
    const seen = this.version;
    const value = await load();
    if (seen === this.version && this.maxEntries > 0) {
      this.entries.set(key, value);
      if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    }
    return value;
  }

  /**
   * A value that entries are computed from (the widths of the ranges' numbers, for the near misses), kept and
   * emptied with the entries. A separate cache would notice a change at another moment: an entry computed
   * in between from its old value would then be kept as if it were current.
   */
  async keepWithEntries<T>(name: string, load: () => Promise<T>): Promise<T> {
    if (this.inputs.has(name)) return this.inputs.get(name) as T;
    const seen = this.version;
    const value = await load();
    if (seen === this.version) this.inputs.set(name, value);
    return value;
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
    this.inputs.clear();
  }

  /** One version query at a time, however many lookups arrive while it runs. */
  private check(): Promise<void> {
    this.checking ??= this.readVersion().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  private async readVersion(): Promise<void> {
    const [row] = rowsOf<{ n: string; m: string }>(
      await this.db.execute(sql`SELECT count(*)::text AS n, coalesce(max(id), 0)::text AS m FROM catalogue_changes`),
    );
    const version = `${row?.n}:${row?.m}`;
    if (version !== this.version) {
      this.clear();
      this.version = version;
    }
    this.checkedAt = this.now();
    if (Number(row?.n) > PRUNE_ABOVE) {
      // Changes the count, so every cache empties once more: harmless, and rare.
      await this.db.execute(sql`DELETE FROM catalogue_changes WHERE changed_at < now() - interval '1 hour'`).catch(() => undefined);
    }
  }
}
