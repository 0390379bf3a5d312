/**
 * Recently used PDFs by report id. A stored report never changes (a new report gets a new id), so a cached
 * one is never stale, on this instance or any other; the preview and the download of one request, an email
 * retried, and a stored report issued again fetch the same bytes within seconds. Bounded by bytes, oldest
 * dropped first.
 */
export type StoredPdf = { bytes: Buffer; filename: string; sha256: string };

const CACHE_BYTES = 32 * 1024 * 1024;
const recent = new Map<string, StoredPdf>();
let cachedBytes = 0;

export function rememberPdf(id: string, pdf: StoredPdf): void {
  if (recent.has(id)) return;
  recent.set(id, pdf);
  cachedBytes += pdf.bytes.length;
  for (const [key, old] of recent) {
    if (cachedBytes <= CACHE_BYTES) break;
    recent.delete(key);
    cachedBytes -= old.bytes.length;
  }
}

/** The cached PDF, marked as the most recently used. */
export function cachedPdf(id: string): StoredPdf | undefined {
  const hit = recent.get(id);
  if (hit) {
    recent.delete(id);
    recent.set(id, hit);
  }
  return hit;
}
