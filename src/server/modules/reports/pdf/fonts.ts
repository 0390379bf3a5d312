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

function load(file: string, name: string): FontkitFont {
  const path = require.resolve(`@expo-google-fonts/noto-sans-tc/${file}`);
  const font = fontkit().create(fs.readFileSync(path));
  if (font.postscriptName !== name) throw new Error(`${file}: expected the face ${name}, found ${font.postscriptName}`);
  return withShapingCache(font);
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
