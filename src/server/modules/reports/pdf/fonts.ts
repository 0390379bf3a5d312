/**
 * Noto Sans TC (the full TTF from @expo-google-fonts/noto-sans-tc: Latin and Traditional Chinese in one
 * face), parsed once per process with fontkit and handed to each document as a parsed font, so that a
 * report costs only the subsetting of the glyphs it uses (pdfkit embeds the subset, a few KB).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
// fontkit ships no types; `create` is all this needs (pdfkit takes the parsed font as it is).
const fontkit = require('fontkit') as { create(buffer: Buffer): unknown };

export interface ReportFonts {
  regular: unknown;
  bold: unknown;
}

let fonts: ReportFonts | null = null;

function load(file: string): unknown {
  const path = require.resolve(`@expo-google-fonts/noto-sans-tc/${file}`);
  return fontkit.create(fs.readFileSync(path));
}

/** The parsed fonts; the first call reads and parses them (about 14 MB of TTF), later calls reuse them. */
export function reportFonts(): ReportFonts {
  fonts ??= { regular: load('400Regular/NotoSansTC_400Regular.ttf'), bold: load('700Bold/NotoSansTC_700Bold.ttf') };
  return fonts;
}

// Shaped words (pdfkit's per-document layout cache, scaled runs of glyph ids and advances) shared by every
// report of the process: shaping with fontkit is the largest cost of a report, and most words (labels,
// units, dates) repeat from report to report. pdfkit only reads cached runs, so sharing them is safe.
const SHARED_LAYOUT_LIMIT = 20_000;
const sharedLayouts = new Map<string, Record<string, unknown>>();

/** Points an opened pdfkit font at the process-wide cache of its face (emptied when it grows too large). */
export function shareLayoutCache(embeddedFont: { layoutCache?: Record<string, unknown> }, face: 'regular' | 'bold'): void {
  let cache = sharedLayouts.get(face);
  if (!cache || Object.keys(cache).length > SHARED_LAYOUT_LIMIT) {
    cache = Object.create(null) as Record<string, unknown>;
    sharedLayouts.set(face, cache);
  }
  embeddedFont.layoutCache = cache;
}
