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
  id: number;
  gen: number;
  offset: number;
  compress: boolean;
  buffer: Uint8Array[];
  data: Record<string, unknown>;
  document: { _offset: number; _security: unknown; _write(data: unknown): void; _refEnd(ref: unknown): void };
  write(chunk: unknown): void;
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

/** A stream object as `compressStreamsFast` makes it: pdfkit's methods, and the operators collected as text. */
interface FastRef extends StreamRef {
  fastText: string[];
  fastShared: (bytes: Uint8Array) => boolean;
}

// pdfkit's own PDFReference methods, taken from the first object made (the class is not exported).
let refWrite: ((this: StreamRef, chunk: unknown) => void) | null = null;
let refFinalize: ((this: StreamRef) => void) | null = null;

// Operators arrive one at a time (a page's content is thousands of them); pdfkit turns each into its own
// byte array with a newline. They are kept as strings and turned into bytes together, with the same
// newlines and the same Latin-1 bytes (pdfkit keeps the low byte of each UTF-16 unit, as Latin-1 does).
// The methods are shared by all objects (a document makes hundreds), not closures made for each.
function flushText(r: FastRef): void {
  if (r.fastText.length === 0) return;
  refWrite!.call(r, Buffer.from(`${r.fastText.join('\n')}\n`, 'latin1'));
  r.fastText.length = 0;
}

function fastWrite(this: FastRef, chunk: unknown): void {
  if (chunk instanceof Uint8Array) {
    flushText(this);
    refWrite!.call(this, chunk);
  } else {
    this.fastText.push(String(chunk));
  }
}

function fastFinalize(this: FastRef): void {
  flushText(this);
  // `compress` is read here, not when the object was made: pdfkit turns it off for the XMP metadata.
  if (this.compress && this.buffer.length > 0) {
    const raw = this.buffer.length === 1 ? this.buffer[0]! : Buffer.concat(this.buffer);
    this.buffer = [deflate(raw, this.fastShared(raw) || isIccProfile(this, raw))];
    this.data.Filter = 'FlateDecode';
    this.compress = false;
  }
  const doc = this.document;
  if (doc._security) {
    refFinalize!.call(this);
    return;
  }
  // pdfkit's PDFReference.finalize without its copy of the stream's bytes, and with the dictionary written
  // by pdfValue; a dictionary holding anything else (a text string, a date, a name tree) is left to pdfkit.
  const body = this.buffer.length === 0 ? null : this.buffer.length === 1 ? this.buffer[0]! : Buffer.concat(this.buffer);
  if (body) this.data.Length = body.length;
  const dictionary = pdfValue(this.data);
  if (dictionary === null) {
    refFinalize!.call(this);
    return;
  }
  this.offset = doc._offset;
  doc._write(`${this.id} ${this.gen} obj`);
  doc._write(dictionary);
  if (body && body.length > 0) {
    doc._write('stream');
    doc._write(body);
    doc._write('\nendstream');
  }
  this.buffer = [];
  doc._write('endobj');
  doc._refEnd(this);
}

// pdfkit's PDFReference.prototype: an object with it is an indirect reference (written `id gen R`).
let refPrototype: object | null = null;

/**
 * A value as pdfkit's PDFObject.convert writes it, for the kinds a report's dictionaries are made of (names,
 * numbers, booleans, null, arrays, dictionaries, references); null for anything else, left to pdfkit. Its
 * `convert` tests each value against seven classes before it looks at numbers, and a report writes some
 * three hundred dictionaries (a structure element for each table cell).
 */
export function pdfValue(v: unknown): string | null {
  switch (typeof v) {
    case 'string':
      return `/${v}`;
    case 'number':
      // PDFObject.number; out of its range pdfkit throws.
      return v > -1e21 && v < 1e21 ? `${Math.round(v * 1e6) / 1e6}` : null;
    case 'boolean':
      return `${v}`;
    case 'object': {
      if (v === null) return 'null';
      if (Array.isArray(v)) {
        const items: string[] = [];
        for (let i = 0; i < v.length; i++) {
          const e: unknown = v[i];
          const item = pdfValue(e === undefined ? null : e);
          if (item === null) return null;
          items.push(item);
        }
        return `[${items.join(' ')}]`;
      }
      const proto = Object.getPrototypeOf(v) as object | null;
      if (proto !== null && proto === refPrototype) return String(v);
      if (proto !== Object.prototype && proto !== null) return null;
      const out = ['<<'];
      const o = v as Record<string, unknown>;
      for (const key in o) {
        const val = o[key];
        if (val === undefined) continue;
        const item = pdfValue(val);
        if (item === null) return null;
        out.push(`/${key} ${item}`);
      }
      out.push('>>');
      return out.join('\n');
    }
    default:
      return null;
  }
}

/**
 * pdfkit's PDF/A output intent: the sRGB profile it reads once per process and writes, the same Buffer in
 * every document, as one chunk of a stream with N 3 (`_addColorOutputIntent`); a report has no other ICC
 * stream. Its compressed form is kept by the Buffer (a WeakMap by the object: never changed).
 */
function isIccProfile(r: StreamRef, raw: Uint8Array): boolean {
  return r.data.N === 3 && r.buffer.length === 1 && r.buffer[0] === raw;
}

/**
 * Makes every stream of `doc` collect its operators as text and compress at STREAM_DEFLATE_LEVEL. `isShared(bytes)` says whether a stream's
 * single chunk is an immutable object shared by documents, whose compressed form may be reused.
 */
export function compressStreamsFast(doc: PDFKit.PDFDocument, isShared: (bytes: Uint8Array) => boolean): void {
  const pdf = doc as unknown as { ref(data?: object): StreamRef };
  const ref = pdf.ref.bind(pdf);
  pdf.ref = (data?: object) => {
    const r = ref(data) as FastRef;
    if (!refWrite) {
      refWrite = r.write;
      refFinalize = r.finalize;
      refPrototype = Object.getPrototypeOf(r) as object;
    }
    r.fastText = [];
    r.fastShared = isShared;
    r.write = fastWrite;
    r.finalize = fastFinalize;
    return r;
  };
}

/**
 * The finished document's bytes. pdfkit writes the file through a Readable stream, one chunk for each
 * line of each object (thousands), each turned into a Buffer and buffered by the stream; a report is
 * wanted whole, so after what the constructor has written (the header, read from the stream) the lines
 * are collected directly, with the byte offsets pdfkit keeps for the cross-reference table.
 */
export function collectPdf(doc: PDFKit.PDFDocument): Promise<Buffer> {
  const pdf = doc as unknown as { _write(data: unknown): void; _offset: number };
  const streamed: Buffer[] = [];
  const lines: string[] = [];
  const direct: Uint8Array[] = [];
  const flushLines = () => {
    if (lines.length === 0) return;
    direct.push(Buffer.from(`${lines.join('\n')}\n`, 'latin1'));
    lines.length = 0;
  };
  pdf._write = (data: unknown) => {
    if (data instanceof Uint8Array) {
      flushLines();
      direct.push(data);
      pdf._offset += data.length;
    } else {
      const line = String(data);
      lines.push(line);
      // pdfkit writes each line as Latin-1 bytes plus a newline (see compressStreamsFast).
      pdf._offset += line.length + 1;
    }
  };
  return new Promise((resolve, reject) => {
    doc.on('data', (c: Buffer) => streamed.push(c));
    doc.on('end', () => {
      flushLines();
      resolve(Buffer.concat([...streamed, ...direct]));
    });
    doc.on('error', reject);
  });
}
