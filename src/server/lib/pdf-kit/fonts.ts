/**
 * Noto Sans TC (the full TTF from @expo-google-fonts/noto-sans-tc: Latin and Traditional Chinese in one
 * face), parsed once per process with fontkit and handed to each document as a parsed font, so that a
 * report costs only the subsetting of the glyphs it uses (pdfkit embeds the subset, a few KB).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The part of a fontkit glyph run the shaping cache copies; pdfkit scales the positions in place. */
interface GlyphPosition {
  xAdvance: number;
  yAdvance: number;
  xOffset: number;
  yOffset: number;
}
interface GlyphRun {
  glyphs: unknown[];
  positions: GlyphPosition[];
}
/** What pdfkit needs of a parsed fontkit font (fontkit ships no types): `layout` is how it is recognised. */
export interface FontkitFont {
  postscriptName: string;
  layout(text: string, features?: unknown, ...rest: unknown[]): GlyphRun;
  createSubset(): FontSubset;
}

/**
 * fontkit's TrueType subset (fontkit 2.0): `includeGlyph` maps a glyph id to its id in the subset, in order of
 * first use; `encode` writes the subset font by calling `_addGlyph` for each included glyph, which appends
 * to the fields below. Only what the caches in `withSubsetCache` use is typed.
 */
export interface FontSubset {
  glyphs: number[];
  includeGlyph(glyph: number | { id: number }): number;
  encode(): Uint8Array;
  _addGlyph?(gid: number): number;
  glyf: Uint8Array[];
  loca: { offsets: number[] };
  hmtx: { metrics: Array<{ advance: number; bearing: number }> };
  offset: number;
}
// Required on the first parse, not when the server loads this module (docs/decisions/0033-server-memory.md).
const fontkit = () => require('fontkit') as { create(buffer: Buffer): FontkitFont };

/**
 * The names a document registers and selects the faces by. They are the fonts' PostScript names on
 * purpose: pdfkit caches an opened font under both the name it was selected by and its PostScript name,
 * so a face first opened as the document's default font (so that no unembedded Helvetica is ever created,
 * which PDF/A forbids) is found again instead of being re-opened and compared on every table cell.
 */
export const REGULAR = 'NotoSansTC-Regular';
export const BOLD = 'NotoSansTC-Bold';

export interface ReportFonts {
  /** the parsed fonts, with their shaping cache, to hand to pdfkit */
  regular: FontkitFont;
  bold: FontkitFont;
}

// Shaped words shared by every report of the process: shaping with fontkit is the largest cost of a
// report, and most words (labels, units, dates) repeat from report to report. pdfkit scales a run's
// positions in place, so each caller gets its own copy of the positions; the glyphs are only read.
const SHAPED_WORDS_LIMIT = 20_000;

function withShapingCache(face: FontkitFont): FontkitFont {
  const shaped = new Map<string, GlyphRun>();
  const cached = Object.create(face) as FontkitFont;
  cached.layout = (text, features, ...rest) => {
    if (features !== undefined || rest.length > 0) return face.layout(text, features, ...rest);
    let run = shaped.get(text);
    if (!run) {
      const fresh = face.layout(text);
      run = { glyphs: fresh.glyphs, positions: fresh.positions.map(copyPosition) };
      if (shaped.size >= SHAPED_WORDS_LIMIT) shaped.clear();
      shaped.set(text, run);
    }
    return runCopy(run);
  };
  return cached;
}

function copyPosition(p: GlyphPosition): GlyphPosition {
  return { xAdvance: p.xAdvance, yAdvance: p.yAdvance, xOffset: p.xOffset, yOffset: p.yOffset };
}

/** A run as fontkit returns it: glyphs, positions and the total advance of the (possibly scaled) positions. */
function runCopy(run: GlyphRun): GlyphRun & { advanceWidth: number } {
  const positions = run.positions.map(copyPosition);
  return {
    glyphs: run.glyphs,
    positions,
    get advanceWidth() {
      let width = 0;
      for (const p of positions) width += p.xAdvance;
      return width;
    },
  };
}

/** What a subset needs of one glyph of the face: read once per process instead of once per document. */
interface GlyphRecord {
  /** the glyph's bytes in the face's glyf table */
  bytes: Uint8Array;
  /** a composite glyph's components: where in `bytes` each component's glyph id is written */
  components: Array<{ glyphID: number; pos: number }> | null;
  advance: number;
  bearing: number;
}

interface FontkitGlyph {
  advanceWidth: number;
  _decode(): { numberOfContours: number; components?: Array<{ glyphID: number; pos: number }> } | null;
  _getMetrics(): { leftBearing: number };
}
interface FontkitInternals {
  getGlyph(gid: number): FontkitGlyph;
  loca?: { offsets: number[] };
  _getTableStream(tag: string): { pos: number; readBuffer(n: number): Uint8Array };
  _variationProcessor?: unknown;
}

// Encoded subsets by their glyph sequence: documents that use the same glyphs in the same order (reports of
// one product, a report rendered again) get the same bytes without subsetting again.
const ENCODED_SUBSETS_LIMIT = 64;
const sharedSubsets = new WeakSet<Uint8Array>();

/** Whether `bytes` is an encoded subset kept by this module: shared by documents and never changed. */
export function isSharedSubset(bytes: Uint8Array): boolean {
  return sharedSubsets.has(bytes);
}

/**
 * Subsetting was the largest cost of a report after shaping: fontkit decodes every glyph of the subset from
 * the 7 MB face for every document. The wrapped subset reads each glyph once per process (`GlyphRecord`) and
 * keeps recently encoded subsets. The bytes are the same as fontkit's own (test/report-fonts.test.ts); for a
 * face that is not plain TrueType (CFF, variations) fontkit's subset is used unchanged.
 */
export function withSubsetCache(face: FontkitFont, target: FontkitFont = face): void {
  const internals = face as unknown as FontkitInternals;
  if (!internals.loca || internals._variationProcessor) return;
  const records = new Map<number, GlyphRecord>();
  const encoded = new Map<string, Uint8Array>();
  const record = (gid: number): GlyphRecord => {
    let r = records.get(gid);
    if (r) return r;
    const glyph = internals.getGlyph(gid);
    const glyf = glyph._decode();
    const offsets = internals.loca!.offsets;
    const stream = internals._getTableStream('glyf');
    stream.pos += offsets[gid]!;
    // A copy: the stream's buffer is the whole face.
    const bytes = Uint8Array.from(stream.readBuffer(offsets[gid + 1]! - offsets[gid]!));
    r = {
      bytes,
      components: glyf && glyf.numberOfContours < 0 ? (glyf.components ?? []).map((c) => ({ glyphID: c.glyphID, pos: c.pos })) : null,
      advance: glyph.advanceWidth,
      bearing: glyph._getMetrics().leftBearing,
    };
    records.set(gid, r);
    return r;
  };
  const createSubset = face.createSubset.bind(face);
  target.createSubset = () => {
    const subset = createSubset();
    // fontkit's TTFSubset._addGlyph, from the records.
    subset._addGlyph = function (this: FontSubset, gid: number): number {
      const r = record(gid);
      let bytes = r.bytes;
      if (r.components) {
        bytes = Uint8Array.from(r.bytes);
        const view = new DataView(bytes.buffer);
        for (const c of r.components) view.setUint16(c.pos, this.includeGlyph(c.glyphID));
      }
      this.glyf.push(bytes);
      this.loca.offsets.push(this.offset);
      this.hmtx.metrics.push({ advance: r.advance, bearing: r.bearing });
      this.offset += bytes.length;
      return this.glyf.length - 1;
    };
    const encode = subset.encode.bind(subset);
    subset.encode = () => {
      // Components are added while encoding; the key is the sequence asked for, which determines them.
      const key = subset.glyphs.join(',');
      let bytes = encoded.get(key);
      if (!bytes) {
        bytes = encode();
        if (encoded.size >= ENCODED_SUBSETS_LIMIT) encoded.delete(encoded.keys().next().value!);
        encoded.set(key, bytes);
        sharedSubsets.add(bytes);
      }
      return bytes;
    };
    return subset;
  };
}

function load(file: string, name: string): FontkitFont {
  const path = require.resolve(`@expo-google-fonts/noto-sans-tc/${file}`);
  const font = fontkit().create(fs.readFileSync(path));
  if (font.postscriptName !== name) throw new Error(`${file}: expected the face ${name}, found ${font.postscriptName}`);
  const cached = withShapingCache(font);
  withSubsetCache(font, cached);
  return cached;
}

let fonts: ReportFonts | null = null;

/** The parsed fonts; the first call reads and parses them (about 14 MB of TTF), later calls reuse them. */
export function reportFonts(): ReportFonts {
  fonts ??= {
    regular: load('400Regular/NotoSansTC_400Regular.ttf', REGULAR),
    bold: load('700Bold/NotoSansTC_700Bold.ttf', BOLD),
  };
  return fonts;
}

// Advance widths of words by face, for every report of the process. pdfkit measures each word (each
// ideograph in Chinese, where a line may break between any two) every time it wraps or places text, through
// a per-document font object; the width of a word in a face never changes.
const WIDTHS_LIMIT = 50_000;
const widthsByFace = new Map<string, Map<string, number>>();

/** pdfkit's per-document embedded font (not in its types): the width of a string at a size. */
interface EmbeddedFont {
  name: string;
  widthOfString(text: string, size: number, features?: unknown): number;
}

/** Makes a document's embedded font (pdfkit's `doc._font` once a face is selected) share measured widths. */
export function shareWidths(font: unknown): void {
  const f = font as EmbeddedFont;
  let widths = widthsByFace.get(f.name);
  if (!widths) widthsByFace.set(f.name, (widths = new Map()));
  const known = widths;
  const measure = f.widthOfString.bind(f);
  f.widthOfString = (text, size, features) => {
    if (features !== undefined) return measure(text, size, features);
    let w = known.get(text);
    if (w === undefined) {
      w = measure(text, 1000);
      if (known.size >= WIDTHS_LIMIT) known.clear();
      known.set(text, w);
    }
    // As pdfkit scales it (the same floating-point steps, so the same positions).
    return w * (size / 1000);
  };
}
