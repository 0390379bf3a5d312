/**
 * The report PDF's own plumbing around pdfkit (src/server/modules/reports/pdf): font subsets read glyph by
 * glyph once per process (fonts.ts), streams deflated at level 1 and the file collected directly
 * (pdf-streams.ts), the data attachment (pdf-attachment.ts) and the chart curve as one path (pdf-chart.ts).
 * Each is compared with what pdfkit or fontkit write themselves.
 */
import { inflateSync } from 'node:zlib';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import {
  BOLD,
  isSharedSubset,
  REGULAR,
  reportFonts,
  shareWidths,
  withSubsetCache,
  type FontkitFont,
} from '../src/server/lib/pdf-kit/fonts';
import { collectPdf, compressStreamsFast } from '../src/server/lib/pdf-kit/pdf-streams';
import { attachFile } from '../src/server/lib/pdf-kit/pdf-attachment';
import { curvePath } from '../src/server/modules/reports/pdf/pdf-chart';

const require = createRequire(import.meta.url);
const fontkit = require('fontkit') as { create(b: Buffer): FontkitFont };
const FIXED = new Date('2026-03-05T10:00:00Z');

const NOTO = '@expo-google-fonts/noto-sans-tc/400Regular/NotoSansTC_400Regular.ttf';
// Noto Sans TC has no composite glyphs; Liberation Sans (pdf.js's standard fonts) builds accented letters from
// components, the other path of a TrueType subset.
const LIBERATION = 'pdfjs-dist/standard_fonts/LiberationSans-Regular.ttf';

function freshFace(file: string): FontkitFont {
  return fontkit.create(fs.readFileSync(require.resolve(file)));
}

type Decoded = { numberOfContours: number } | null;
const isComposite = (face: FontkitFont, id: number) =>
  ((face as unknown as { getGlyph(id: number): { _decode(): Decoded } }).getGlyph(id)._decode()?.numberOfContours ?? 0) < 0;

/** The glyph ids fontkit shapes `text` to. */
function glyphIds(face: FontkitFont, text: string): number[] {
  return (face.layout(text).glyphs as Array<{ id: number }>).map((g) => g.id);
}

function subsetBytes(face: FontkitFont, ids: number[]): Buffer {
  const s = face.createSubset();
  for (const id of ids) s.includeGlyph(id);
  return Buffer.from(s.encode());
}

/** A small document with text in both faces, a path and (optionally) the data attachment. */
async function sampleDoc(opts: { fast: boolean; attach?: 'pdfkit' | 'own' }): Promise<Buffer> {
  const fonts = reportFonts();
  const doc = new PDFDocument({ size: 'A4', font: '', autoFirstPage: false, info: { CreationDate: FIXED, ModDate: FIXED } });
  let done: Promise<Buffer>;
  if (opts.fast) {
    done = collectPdf(doc);
    compressStreamsFast(doc, isSharedSubset);
  } else {
    const chunks: Buffer[] = [];
    done = new Promise((resolve) => {
      doc.on('data', (c: Buffer) => chunks.push(c));
      doc.on('end', () => resolve(Buffer.concat(chunks)));
    });
  }
  doc.registerFont(REGULAR, fonts.regular, REGULAR);
  doc.registerFont(BOLD, fonts.bold, BOLD);
  doc.addPage();
  const data = Buffer.from(JSON.stringify({ samples: Array.from({ length: 500 }, (_, i) => ({ t: i / 10, p: Math.sin(i) })) }));
  if (opts.attach === 'pdfkit') {
    doc.file(data, {
      name: 'test-report.json',
      type: 'application/json',
      relationship: 'Data',
      description: 'Daten (x)',
      creationDate: FIXED,
      modifiedDate: FIXED,
    });
  } else if (opts.attach === 'own') {
    attachFile(doc, {
      name: 'test-report.json',
      data,
      type: 'application/json',
      relationship: 'Data',
      description: 'Daten (x)',
      date: FIXED,
    });
  }
  for (let i = 0; i < 40; i++)
    doc
      .font(i % 2 ? BOLD : REGULAR)
      .fontSize(9)
      .text(`Line ${i}: 試驗報告 pressure ${i * 1.5} MPa — Ä`, 40, 40 + i * 12);
  doc.addPage();
  doc.moveTo(10, 10).lineTo(200, 300).stroke();
  doc.end();
  return done;
}

/** Every stream of a PDF, inflated when it says FlateDecode. */
function streams(pdf: Buffer): Buffer[] {
  const out: Buffer[] = [];
  const s = pdf.toString('latin1');
  const re = /<<([\s\S]*?)>>\nstream\n/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(s))) {
    const length = Number(/\/Length (\d+)/.exec(m[1]!)![1]);
    const start = m.index + m[0].length;
    const raw = pdf.subarray(start, start + length);
    out.push(m[1]!.includes('/FlateDecode') ? inflateSync(raw) : Buffer.from(raw));
  }
  return out;
}

/** Objects whose cross-reference offset does not point at `N 0 obj`. */
function badOffsets(pdf: Buffer): number[] {
  const s = pdf.toString('latin1');
  const start = Number(/startxref\n(\d+)/.exec(s.slice(-100))![1]);
  const head = /^xref\n0 (\d+)\n/.exec(s.slice(start))!;
  const rows = s.slice(start + head[0].length).split('\n');
  const bad: number[] = [];
  for (let i = 1; i < Number(head[1]); i++) if (!s.startsWith(`${i} 0 obj`, Number(rows[i]!.slice(0, 10)))) bad.push(i);
  return bad;
}

describe('font subsets from glyph records', () => {
  it.each([
    ['Noto Sans TC', NOTO, 'Test Report 試驗報告 ÄÖÜ é ñ 0123456789 – · °C', false],
    ['Liberation Sans', LIBERATION, 'Prüfbericht Ä Ö Ü é ñ Ç 0123', true],
  ])('%s: writes the same bytes as fontkit and keeps the encoding', (_name, file, text, composites) => {
    const plain = freshFace(file);
    const cached = freshFace(file);
    withSubsetCache(cached);
    const ids = glyphIds(plain, text);
    expect(ids.some((id) => isComposite(plain, id))).toBe(composites);
    const own = subsetBytes(cached, ids);
    expect(own.equals(subsetBytes(plain, ids))).toBe(true);
    // A second document with the same glyphs gets the kept bytes; another order gives another subset.
    const s = cached.createSubset();
    for (const id of ids) s.includeGlyph(id);
    expect(Buffer.from(s.encode()).equals(own)).toBe(true);
    const reversed = [...ids].reverse();
    expect(subsetBytes(cached, reversed).equals(subsetBytes(plain, reversed))).toBe(true);
  });

  it('marks only the kept encodings as shared', () => {
    const face = reportFonts().regular;
    const s = face.createSubset();
    for (const id of glyphIds(face, 'shared?')) s.includeGlyph(id);
    expect(isSharedSubset(s.encode())).toBe(true);
    expect(isSharedSubset(new Uint8Array(4))).toBe(false);
  });
});

describe('widths shared by documents', () => {
  it('measures every word and line as pdfkit does, the first time and from the kept widths', () => {
    const fonts = reportFonts();
    const open = (shared: boolean) => {
      const doc = new PDFDocument({ size: 'A4', font: '', autoFirstPage: false });
      doc.registerFont(REGULAR, fonts.regular, REGULAR);
      doc.font(REGULAR);
      if (shared) shareWidths((doc as unknown as { _font: unknown })._font);
      doc.addPage();
      return doc;
    };
    const texts = ['Test pressure', '2.94 MPa (required ≥ 2.94 MPa)', '試驗壓力', '試', '', 'Hold 60 s — 保壓時間 60 秒'];
    const sizes = [7, 8.5, 9, 18];
    for (const round of [1, 2]) {
      const plain = open(false);
      const shared = open(true);
      for (const text of texts) {
        for (const size of sizes) {
          plain.fontSize(size);
          shared.fontSize(size);
          expect([round, text, size, shared.widthOfString(text)]).toEqual([round, text, size, plain.widthOfString(text)]);
          const long = `${text} `.repeat(12);
          expect(shared.heightOfString(long, { width: 120 })).toBe(plain.heightOfString(long, { width: 120 }));
        }
      }
    }
  });
});

describe('streams and the file', () => {
  it('holds the same streams as pdfkit writes them, deflated at level 1, with a correct cross-reference table', async () => {
    const pdfkit = await sampleDoc({ fast: false });
    const fast = await sampleDoc({ fast: true });
    expect(streams(fast)).toEqual(streams(pdfkit));
    expect(badOffsets(pdfkit)).toEqual([]);
    expect(badOffsets(fast)).toEqual([]);
    // zlib's header says the level: 78 01 is level 1, 78 9C pdfkit's default.
    const headers = (pdf: Buffer) =>
      [...pdf.toString('latin1').matchAll(/\/FlateDecode\n>>\nstream\n(..)/g)].map((m) => Buffer.from(m[1]!, 'latin1').toString('hex'));
    expect(new Set(headers(pdfkit))).toEqual(new Set(['789c']));
    expect(new Set(headers(fast))).toEqual(new Set(['7801']));
    // Everything outside the streams is the same file.
    const outside = (pdf: Buffer) =>
      pdf
        .toString('latin1')
        .replace(/stream\n[\s\S]*?\nendstream/g, 'stream')
        .replace(/\/Length \d+/g, '/Length')
        .replace(/^\d{10} 00000 n $/gm, 'offset')
        .replace(/startxref\n\d+/, 'startxref');
    expect(outside(fast)).toBe(outside(pdfkit));
  });

  it('attaches the data as pdfkit does, byte for byte', async () => {
    const pdfkit = await sampleDoc({ fast: false, attach: 'pdfkit' });
    const own = await sampleDoc({ fast: false, attach: 'own' });
    expect(own.equals(pdfkit)).toBe(true);
    expect(pdfkit.toString('latin1')).toContain('/AFRelationship /Data');
  });
});

describe('the chart curve as one path', () => {
  it('keeps every point to a tenth of a point, leaves out only repeats, and starts with a move', () => {
    const points: Array<[number, number]> = [
      [10, 100],
      [10.01, 100.02],
      [10.5, 99.96],
      [11, 40.04],
      [11.02, 40.01],
      [11.5, 120],
    ];
    const ops = curvePath(points).split('\n');
    expect(ops).toEqual(['10 100 m', '10.5 100 l', '11 40 l', '11.5 120 l']);
    for (const [x, y] of points) {
      const near = ops.some((op) => {
        const [px, py] = op.split(' ').map(Number);
        return Math.abs(px! - x) <= 0.05 + 1e-9 && Math.abs(py! - y) <= 0.05 + 1e-9;
      });
      expect(near).toBe(true);
    }
    expect(curvePath([[1, 2]])).toBe('1 2 m\n1 2 l');
  });
});
