/**
 * Recently used PDFs by report id. A stored report never changes (a new report gets a new id), so a cached
 * one is never stale, on this instance or any other; the preview and the download of one request, an email
 * retried, and a stored report issued again fetch the same bytes within seconds. Bounded by bytes, oldest
 * dropped first, and by time: an entry unused for 30 s is dropped by the background work (background.ts),
 * so a burst of reports does not keep up to 32 MB of PDFs in a server that has gone quiet
 * (docs/decisions/0033, seventh section).
 */
export type StoredPdf = { bytes: Buffer; filename: string; sha256: string };

const CACHE_BYTES = 32 * 1024 * 1024;
/** How long an entry may go unused before dropIdle() drops it. */
export const PDF_IDLE_MS = 30_000;

export class RecentPdfs {
  private readonly entries = new Map<string, { pdf: StoredPdf; usedAt: number }>();
  private held = 0;

  constructor(
    private readonly maxBytes = CACHE_BYTES,
    private readonly idleMs = PDF_IDLE_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Bytes of PDF held. */
  get bytes(): number {
    return this.held;
  }

  remember(id: string, pdf: StoredPdf): void {
    if (this.entries.has(id)) return;
    this.entries.set(id, { pdf, usedAt: this.now() });
    this.held += pdf.bytes.length;
    // A Map iterates in insertion order, and get() reinserts what it returns: the first entries are the least recently used.
    for (const [key, old] of this.entries) {
      if (this.held <= this.maxBytes) break;
      this.drop(key, old.pdf);
    }
  }

  /** The cached PDF, marked as the most recently used. */
  get(id: string): StoredPdf | undefined {
    const hit = this.entries.get(id);
    if (!hit) return undefined;
    this.entries.delete(id);
    this.entries.set(id, { pdf: hit.pdf, usedAt: this.now() });
    return hit.pdf;
  }

  /** Drops the entries unused for idleMs or longer; returns how many. */
  dropIdle(): number {
    const before = this.now() - this.idleMs;
    let dropped = 0;
    for (const [key, entry] of this.entries) {
      if (entry.usedAt > before) break; // the rest were used later
      this.drop(key, entry.pdf);
      dropped++;
    }
    return dropped;
  }

  private drop(key: string, pdf: StoredPdf): void {
    this.entries.delete(key);
    this.held -= pdf.bytes.length;
  }
}
