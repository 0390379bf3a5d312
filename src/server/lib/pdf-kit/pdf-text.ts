/**
 * Plain text written the way pdfkit 0.20 writes it, without its per-call machinery
 * (docs/decisions/0032-report-pdf-speed.md, decision 9).
 *
 * For each call of `doc.text` pdfkit copies and fills an options object, runs its line breaker over every
 * word (a LineBreaker, a width per word, events per line), measures the line again, shapes it again word by
 * word, concatenates the glyphs, formats each glyph and each kerning gap, and writes eight operators one at
 * a time. A report is a few hundred short texts, and most of them (labels, headings, units, dates) are the
 * same in every report of a language. Here:
 *
 * - the lines a text wraps into are found once per process by face, size, width and text, with pdfkit's own
 *   line wrapper (the same run as `doc.heightOfString`, whose height is kept with them);
 * - the TJ layout of a line (its glyphs, where a kerning gap splits it and the gap's figure) is made once
 *   per process by face and text, from the document's own font object, so with pdfkit's own shaping and
 *   scaling;
 * - each document only maps the glyphs to its subset (pdfkit's `encode`: the same calls, in the same order)
 *   and writes the same operators, with the same numbers, as one piece of content.
 *
 * The bytes are pdfkit's (test/report-pdf-text.test.ts compares them with `doc.text` call by call). Whatever
 * this does not write the same way goes to `doc.text` unchanged: empty text, line feeds or tabs, glyphs
 * placed with an offset, text that would reach the bottom margin (where pdfkit would start a new page), and
 * any option but a width.
 */

type Doc = PDFKit.PDFDocument;

/** A glyph of a fontkit run (what pdfkit's `encode` reads of it). */
interface Glyph {
  id: number;
  advanceWidth: number;
  codePoints: number[];
}

interface Position {
  xAdvance: number;
  yAdvance: number;
  xOffset: number;
  yOffset: number;
  advanceWidth: number;
}

/** pdfkit's per-document embedded font (EmbeddedFont; not in its types): what its text writing uses. */
interface EmbeddedFont {
  id: string;
  name: string;
  scale: number;
  ascender: number;
  widths: number[];
  unicode: number[][];
  subset: { includeGlyph(glyph: number): number };
  layout(text: string): { glyphs: Glyph[]; positions: Position[] };
  lineHeight(size: number, includeGap?: boolean): number;
  ref(): unknown;
}

/** The parts of pdfkit's document (not in its types) this module reads or sets, as `_fragment` does. */
interface DocInternals {
  _font: EmbeddedFont;
  _fontSize: number;
  _lineGap: number;
  _textOptions: unknown;
  _wrapper: unknown;
  x: number;
  y: number;
  page: { height: number; fonts: Record<string, unknown>; maxY(): number };
  addContent(data: string): unknown;
  currentLineHeight(includeGap?: boolean): number;
  widthOfString(text: string): number;
  _initOptions(options: object): Record<string, unknown>;
  _text(text: string, x: number, y: number, options: object, lineCallback: (line: string) => void): unknown;
}

/** pdfkit's PDFObject.number: numbers in content are written rounded to six decimals. */
const num = (n: number): number => Math.round(n * 1e6) / 1e6;

/**
 * `${PDFObject.number(n)}`, the text pdfkit writes for a coordinate, from integers: the millionths k =
 * round(n × 10⁶) written as JavaScript writes k / 10⁶ (the shortest decimal that reads back as it, which for
 * a safe integer k is its integer part and its millionths without trailing zeros). Writing a fraction is the
 * costly part of a number, and a page has thousands.
 */
export function pdfNumber(n: number): string {
  if (!(n > -1e21 && n < 1e21)) throw new Error(`unsupported number: ${n}`);
  const k = Math.round(n * 1e6);
  if (k % 1e6 === 0 || !(Math.abs(k) < 1e15)) return `${k / 1e6}`;
  const a = k < 0 ? -k : k;
  let f = a % 1e6;
  let digits = 6;
  while (f % 10 === 0) {
    f /= 10;
    digits--;
  }
  return `${k < 0 ? '-' : ''}${(a - (a % 1e6)) / 1e6}.${`${f}`.padStart(digits, '0')}`;
}

/**
 * A line's TJ operand without the glyph codes: the glyphs, and for each run of glyphs between kerning gaps
 * (pdfkit's `addSegment`) where it ends and the figure written after it.
 */
interface LineLayout {
  glyphs: Glyph[];
  ends: number[];
  gaps: string[];
}

// By face (PostScript name) and text, for every document of the process. `null`: a glyph is placed with an
// offset (pdfkit then moves the text matrix), written by pdfkit.
// (Maps by face, then by text: a key joined from both would be built, and hashed, on every call.)
const LAYOUTS_LIMIT = 20_000;
const layoutsByFace = new Map<string, Map<string, LineLayout | null>>();

function lineLayout(font: EmbeddedFont, text: string): LineLayout | null {
  let layouts = layoutsByFace.get(font.name);
  if (!layouts) layoutsByFace.set(font.name, (layouts = new Map()));
  let l = layouts.get(text);
  if (l !== undefined) return l;
  // pdfkit's `encode` lays the line out word by word through the document's font (the same shaping,
  // the same scaling); the positions are only read here.
  const { glyphs, positions } = font.layout(text);
  l = { glyphs, ends: [], gaps: [] };
  let last = 0;
  const segment = (cur: number) => {
    if (last < cur) {
      const p = positions[cur - 1]!;
      l!.ends.push(cur);
      l!.gaps.push(`${num(-(p.xAdvance - p.advanceWidth))}`);
    }
    last = cur;
  };
  for (let i = 0; i < positions.length; i++) {
    const p = positions[i]!;
    if (p.xOffset || p.yOffset) {
      l = null;
      break;
    }
    if (p.xAdvance - p.advanceWidth !== 0) segment(i + 1);
  }
  if (l) segment(positions.length);
  // No glyph: pdfkit writes no TJ at all.
  if (l && l.ends.length === 0) l = null;
  if (layouts.size >= LAYOUTS_LIMIT) layouts.clear();
  layouts.set(text, l);
  return l;
}

// Per document font object: the glyph codes of the glyphs already in its subset (4 hex digits, as pdfkit
// writes them), and the TJ operands of the lines already written (labels repeat in a report's tables).
interface FontState {
  codes: Map<number, string>;
  operands: Map<LineLayout, string>;
}
const stateByFont = new WeakMap<EmbeddedFont, FontState>();

/** The TJ operand of a line in the document's font: pdfkit's `encode` and `addSegment`, in its order. */
function tjOperand(font: EmbeddedFont, l: LineLayout): string {
  let state = stateByFont.get(font);
  if (!state) stateByFont.set(font, (state = { codes: new Map(), operands: new Map() }));
  let out = state.operands.get(l);
  if (out !== undefined) return out;
  const codes = state.codes;
  out = '';
  let g = 0;
  for (let s = 0; s < l.ends.length; s++) {
    let hex = '';
    for (const end = l.ends[s]!; g < end; g++) {
      const glyph = l.glyphs[g]!;
      let code = codes.get(glyph.id);
      if (code === undefined) {
        const gid = font.subset.includeGlyph(glyph.id);
        code = `0000${gid.toString(16)}`.slice(-4);
        if (font.widths[gid] == null) font.widths[gid] = glyph.advanceWidth * font.scale;
        if (font.unicode[gid] == null) font.unicode[gid] = glyph.codePoints;
        codes.set(glyph.id, code);
      }
      hex += code;
    }
    out += s === 0 ? `<${hex}> ${l.gaps[s]}` : ` <${hex}> ${l.gaps[s]}`;
  }
  state.operands.set(l, out);
  return out;
}

/**
 * Writes one line at (x, top) as `_fragment` does for left-aligned text without options: false when pdfkit
 * must write it (nothing is written then).
 */
function writeLine(d: DocInternals, text: string, x: number, top: number): boolean {
  const font = d._font;
  const l = lineLayout(font, text);
  if (!l) return false;
  const size = d._fontSize;
  const page = d.page;
  const y = page.height - top - (font.ascender / 1000) * size;
  if (page.fonts[font.id] == null) page.fonts[font.id] = font.ref();
  // save, the flip of the y axis, BT, Tm, Tf, TJ, ET, restore: pdfkit writes them one by one, each followed
  // by a newline; the page's content is collected as text (pdf-streams.ts), so one piece is the same bytes.
  // (pdfkit's save/restore leave its matrix as it was.)
  d.addContent(
    `q\n1 0 0 -1 0 ${pdfNumber(page.height)} cm\nBT\n1 0 0 1 ${pdfNumber(x)} ${pdfNumber(y)} Tm\n/${font.id} ${pdfNumber(size)} Tf\n[${tjOperand(font, l)}] TJ\nET\nQ`,
  );
  return true;
}

/** Lines of a text wrapped at a width in a face and size. */
export interface Wrapped {
  lines: string[];
}

// By face, size, width and text, for every report of the process: labels and most values repeat from report
// to report. They depend only on these and the document defaults, which every report shares (no line gap,
// no character spacing).
// (Nested maps by face, size, width and text: no key is built per call, and no number turned into text.)
const WRAPPED_LIMIT = 20_000;
const wrappedByFace = new Map<string, Map<number, Map<number, Map<string, Wrapped>>>>();

/**
 * The lines pdfkit's wrapper breaks a text into at `width` in the selected face and size (the run
 * `doc.heightOfString` makes: `_text` with a callback per line).
 */
export function wrapText(doc: Doc, text: string, width: number): Wrapped {
  const d = doc as unknown as DocInternals;
  let bySize = wrappedByFace.get(d._font.name);
  if (!bySize) wrappedByFace.set(d._font.name, (bySize = new Map()));
  let byWidth = bySize.get(d._fontSize);
  if (!byWidth) bySize.set(d._fontSize, (byWidth = new Map()));
  let texts = byWidth.get(width);
  if (!texts) byWidth.set(width, (texts = new Map()));
  let w = texts.get(text);
  if (w) return w;
  const { x, y } = d;
  const options = d._initOptions({ width });
  options.height = Infinity;
  const lineGap = (options.lineGap as number) || d._lineGap || 0;
  const lines: string[] = [];
  d._text(text, d.x, d.y, options, (line: string) => {
    lines.push(line);
    d.y += d.currentLineHeight(true) + lineGap;
  });
  w = { lines };
  d.x = x;
  d.y = y;
  if (texts.size >= WRAPPED_LIMIT) texts.clear();
  texts.set(text, w);
  return w;
}

/**
 * `doc.heightOfString(text, { width })` in the selected face and size: pdfkit's sum of line heights from the
 * current `doc.y` (so the same figure, to the last bit, as if measured afresh), over the kept lines.
 */
export function textHeight(doc: Doc, text: string, width: number): number {
  const d = doc as unknown as DocInternals;
  const { lines } = wrapText(doc, text, width);
  const lineGap = d._lineGap || 0;
  const start = d.y;
  let y = start;
  for (let i = 0; i < lines.length; i++) y += d.currentLineHeight(true) + lineGap;
  return y - start;
}

/**
 * `doc.text(text, x, y, { width })` in the selected face, size and colour (left-aligned, no other option),
 * or with `width` undefined `doc.text(text, x, y, { lineBreak: false })`: the same content, the same `doc.x`
 * and `doc.y` after it.
 */
export function writeText(doc: Doc, text: string, x: number, y: number, width?: number): void {
  const d = doc as unknown as DocInternals;
  if (text === '' || /[\n\t\r]/.test(text) || d._textOptions || d._wrapper) {
    doc.text(text, x, y, width === undefined ? { lineBreak: false } : { width });
    return;
  }
  if (width === undefined) {
    // One line, no page break (pdfkit's `_line` without a wrapper moves x by the text's width).
    if (!writeLine(d, text, x, y)) {
      doc.text(text, x, y, { lineBreak: false });
      return;
    }
    d.x = x;
    d.y = y;
    d.x += d.widthOfString(text);
    return;
  }
  const { lines } = wrapText(doc, text, width);
  // A document's line gap (the compact certificate's tighter leading) moves each line as pdfkit's does.
  const lh = d.currentLineHeight(true) + (d._lineGap || 0);
  // pdfkit's wrapper starts a new page when a line would cross the bottom margin: left to it, with room to
  // spare for its rounding.
  if (lines.length === 0 || y + (lines.length + 1) * lh + 1 > d.page.maxY()) {
    doc.text(text, x, y, { width });
    return;
  }
  // The lines' layouts first: if one must be written by pdfkit, all are, before anything is written.
  for (const line of lines) {
    if (line !== '' && !lineLayout(d._font, line)) {
      doc.text(text, x, y, { width });
      return;
    }
  }
  d.x = x;
  d.y = y;
  for (const line of lines) {
    // pdfkit writes nothing for an empty line (a text that starts with a break), and still moves down.
    if (line !== '') writeLine(d, line, x, d.y);
    d.y += lh;
  }
  d.x = x;
}

// A colour's operators by colour and operation (pdfkit's `_setColorCore` for a #rrggbb colour: the colour
// space, then the components divided by 255, joined as JavaScript writes them).
const colorOperators = new Map<string, string>();

function colorOperator(color: string, stroke: boolean): string | null {
  const key = stroke ? `S${color}` : `f${color}`;
  let op = colorOperators.get(key);
  if (op === undefined) {
    if (!/^#[0-9a-f]{6}$/i.test(color)) return null;
    const hex = parseInt(color.slice(1), 16);
    const rgb = [hex >> 16, (hex >> 8) & 0xff, hex & 0xff].map((part) => part / 255);
    op = stroke ? `/DeviceRGB CS\n${rgb.join(' ')} SCN` : `/DeviceRGB cs\n${rgb.join(' ')} scn`;
    colorOperators.set(key, op);
  }
  return op;
}

/** `doc.fillColor(color)` for a #rrggbb colour: the same operators and the same state, from a table. */
export function fillColor(doc: Doc, color: string): Doc {
  const op = colorOperator(color, false);
  if (op === null) return doc.fillColor(color);
  const d = doc as unknown as DocInternals & { _fillColor: unknown };
  d.addContent(op);
  d._fillColor = [color, undefined];
  return doc;
}

/** `doc.strokeColor(color)` for a #rrggbb colour: the same operators, from a table. */
export function strokeColor(doc: Doc, color: string): Doc {
  const op = colorOperator(color, true);
  if (op === null) return doc.strokeColor(color);
  (doc as unknown as DocInternals).addContent(op);
  return doc;
}
