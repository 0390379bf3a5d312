/**
 * How a report's streams are compressed. pdfkit 0.20 deflates every stream at zlib's default level (6) and
 * offers no setting; at level 1 a report's streams (page contents, the embedded data, the font subsets) take
 * about a third of the time for a few KB more (docs/decisions/0032-report-pdf-speed.md). Font subsets
 * repeat from report to report (fonts.ts keeps them), so their compressed bytes are kept too.
 *
 * The hook is per document: `doc.ref` is wrapped so that each stream object it creates compresses itself
 * just before pdfkit writes it (PDFReference.finalize), with the Filter pdfkit would have set. pdfkit then
 * finds the stream already filtered and writes it as it is, as it does for any stream given a Filter.
 */
import { deflateSync } from 'node:zlib';

export const STREAM_DEFLATE_LEVEL = 1;

/** The part of pdfkit's PDFReference (not in its types) this hook touches. */
interface StreamRef {
  compress: boolean;
  buffer: Uint8Array[];
  data: Record<string, unknown>;
  finalize(): void;
}

// Compressed bytes of immutable inputs shared between documents (a cached font subset is the same object).
const compressedShared = new WeakMap<Uint8Array, Buffer>();

/**
 * Deflates `raw` at STREAM_DEFLATE_LEVEL; a `shared` input (the same bytes object for every document, never
 * changed) is compressed once.
 */
function deflate(raw: Uint8Array, shared: boolean): Buffer {
  if (!shared) return deflateSync(raw, { level: STREAM_DEFLATE_LEVEL });
  let out = compressedShared.get(raw);
  if (!out) {
    out = deflateSync(raw, { level: STREAM_DEFLATE_LEVEL });
    compressedShared.set(raw, out);
  }
  return out;
}

/**
 * Makes every stream of `doc` compress at STREAM_DEFLATE_LEVEL. `isShared(bytes)` says whether a stream's
 * single chunk is an immutable object shared by documents, whose compressed form may be reused.
 */
export function compressStreamsFast(doc: PDFKit.PDFDocument, isShared: (bytes: Uint8Array) => boolean): void {
  const pdf = doc as unknown as { ref(data?: object): StreamRef };
  const ref = pdf.ref.bind(pdf);
  pdf.ref = (data?: object) => {
    const r = ref(data);
    const finalize = r.finalize.bind(r);
    r.finalize = () => {
      // `compress` is read here, not when the object was made: pdfkit turns it off for the XMP metadata.
      if (r.compress && r.buffer.length > 0) {
        const raw = r.buffer.length === 1 ? r.buffer[0]! : Buffer.concat(r.buffer);
        r.buffer = [deflate(raw, isShared(raw))];
        r.data.Filter = 'FlateDecode';
        r.compress = false;
      }
      finalize();
    };
    return r;
  };
}
