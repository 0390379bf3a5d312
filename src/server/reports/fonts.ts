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
