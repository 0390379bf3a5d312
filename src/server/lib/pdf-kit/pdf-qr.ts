/** The verification QR code as vector squares (one path, one fill): crisp at any zoom and a few hundred bytes. */
import type QRCodeModule from 'qrcode';
import type { QRCodeMaskPattern } from 'qrcode';
import { packageOnFirstUse } from '../first-use';
import { pdfNumber } from './pdf-text';

// qrcode on the first code drawn (lib/first-use.ts).
const qrcode = packageOnFirstUse<typeof QRCodeModule>('qrcode');

type Doc = PDFKit.PDFDocument;

export interface QrOptions {
  /**
   * A fixed mask pattern (0–7) instead of the best one: choosing it scores all eight, which is most of the
   * cost of a code; a sheet of thousands of labels (serials/labels-pdf.ts) fixes it. Any mask decodes.
   */
  maskPattern?: QRCodeMaskPattern;
}

/** Draws the code of `text` in a square of `size` points at (x, y), with its quiet zone inside the square. */
export function drawQr(doc: Doc, text: string, x: number, y: number, size: number, options: QrOptions = {}): void {
  const qr =
    options.maskPattern === undefined
      ? bestMaskCode(text)
      : qrcode().create(text, { errorCorrectionLevel: 'M', maskPattern: options.maskPattern });
  const n = qr.modules.size;
  const quiet = 2;
  const cell = size / (n + quiet * 2);
  doc.save();
  doc.rect(x, y, size, size).fillColor('#ffffff').fill();
  // A run of dark modules in a row is one rectangle: half the path of one square per module. The path is
  // written as pdfkit's `rect` writes each (the same figures), as one piece of content.
  const path: string[] = [];
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      if (!qr.modules.get(r, c)) continue;
      let end = c + 1;
      while (end < n && qr.modules.get(r, end)) end++;
      path.push(
        `${pdfNumber(x + (c + quiet) * cell)} ${pdfNumber(y + (r + quiet) * cell)} ${pdfNumber((end - c) * cell + 0.01)} ${pdfNumber(cell + 0.01)} re`,
      );
      c = end;
    }
  }
  if (path.length > 0) doc.addContent(path.join('\n'));
  doc.fillColor('#000000').fill();
  doc.restore();
}

/** The modules of a code (qrcode's BitMatrix, or the same values made here). */
interface Modules {
  size: number;
  data: Uint8Array;
  get(row: number, col: number): number;
}

/** qrcode 1.5's BitMatrix fields (`reservedBit`: the function modules, never masked; not in its types). */
interface BitMatrix extends Modules {
  reservedBit: Uint8Array;
}

// qrcode's own format information (error correction level and mask, BCH-coded): required on first use.
type FormatBits = (errorCorrectionLevel: unknown, mask: number) => number;
const formatInfo = packageOnFirstUse<{ getEncodedBits: FormatBits }>('qrcode/lib/core/format-info');

/** qrcode's mask patterns (`getMaskAt`), row i, column j. */
const MASKS: Array<(i: number, j: number) => boolean> = [
  (i, j) => (i + j) % 2 === 0,
  (i) => i % 2 === 0,
  (_i, j) => j % 3 === 0,
  (i, j) => (i + j) % 3 === 0,
  (i, j) => (Math.floor(i / 2) + Math.floor(j / 3)) % 2 === 0,
  (i, j) => ((i * j) % 2) + ((i * j) % 3) === 0,
  (i, j) => (((i * j) % 2) + ((i * j) % 3)) % 2 === 0,
  (i, j) => (((i * j) % 3) + ((i + j) % 2)) % 2 === 0,
];

// The eight masks as 0/1 per module, 0 on the function modules, by symbol size (one size is one version,
// whose function modules are fixed): XOR with one is qrcode's `applyMask`.
const masksBySize = new Map<number, Uint8Array[]>();

function masksFor(m: BitMatrix): Uint8Array[] {
  let masks = masksBySize.get(m.size);
  if (masks) return masks;
  const n = m.size;
  masks = MASKS.map((at) => {
    const mask = new Uint8Array(n * n);
    for (let row = 0; row < n; row++)
      for (let col = 0; col < n; col++) if (!m.reservedBit[row * n + col] && at(row, col)) mask[row * n + col] = 1;
    return mask;
  });
  masksBySize.set(n, masks);
  return masks;
}

/** qrcode's `setupFormatInfo`: the 15 format bits beside the finder patterns, and the dark module. */
function setFormat(d: Uint8Array, n: number, bits: number): void {
  for (let i = 0; i < 15; i++) {
    const mod = (bits >> i) & 1;
    if (i < 6) d[i * n + 8] = mod;
    else if (i < 8) d[(i + 1) * n + 8] = mod;
    else d[(n - 15 + i) * n + 8] = mod;
    if (i < 8) d[8 * n + n - i - 1] = mod;
    else if (i < 9) d[8 * n + 15 - i - 1 + 1] = mod;
    else d[8 * n + 15 - i - 1] = mod;
  }
  d[(n - 8) * n + 8] = 1;
}

/** qrcode's penalty score of a masked symbol (N1 + N2 + N3 + N4 of its mask-pattern.js), the same figures. */
export function maskPenalty(d: Uint8Array, n: number): number {
  let n1 = 0;
  let n2 = 0;
  let n3 = 0;
  for (let row = 0; row < n; row++) {
    // N1: runs of five or more of one colour along the row and along the column; N3: finder-like patterns.
    let sameRow = 0;
    let sameCol = 0;
    let lastRow = -1;
    let lastCol = -1;
    let bitsRow = 0;
    let bitsCol = 0;
    for (let col = 0; col < n; col++) {
      const a = d[row * n + col]!;
      if (a === lastRow) sameRow++;
      else {
        if (sameRow >= 5) n1 += 3 + (sameRow - 5);
        lastRow = a;
        sameRow = 1;
      }
      const b = d[col * n + row]!;
      if (b === lastCol) sameCol++;
      else {
        if (sameCol >= 5) n1 += 3 + (sameCol - 5);
        lastCol = b;
        sameCol = 1;
      }
      bitsRow = ((bitsRow << 1) & 0x7ff) | a;
      if (col >= 10 && (bitsRow === 0x5d0 || bitsRow === 0x05d)) n3++;
      bitsCol = ((bitsCol << 1) & 0x7ff) | b;
      if (col >= 10 && (bitsCol === 0x5d0 || bitsCol === 0x05d)) n3++;
    }
    if (sameRow >= 5) n1 += 3 + (sameRow - 5);
    if (sameCol >= 5) n1 += 3 + (sameCol - 5);
  }
  // N2: 2×2 blocks of one colour.
  for (let row = 0; row < n - 1; row++) {
    const r0 = row * n;
    const r1 = r0 + n;
    for (let col = 0; col < n - 1; col++) {
      const s = d[r0 + col]! + d[r0 + col + 1]! + d[r1 + col]! + d[r1 + col + 1]!;
      if (s === 4 || s === 0) n2++;
    }
  }
  // N4: the share of dark modules, away from half in steps of 5 %.
  let dark = 0;
  for (let i = 0; i < d.length; i++) dark += d[i]!;
  const k = Math.abs(Math.ceil((dark * 100) / d.length / 5) - 10);
  return n1 + n2 * 3 + n3 * 40 + k * 10;
}

/**
 * The code qrcode makes with its best mask (`QRCode.create(text, { errorCorrectionLevel: 'M' })`), the same
 * modules, with the mask chosen faster: qrcode scores the eight masks through a method call per module and
 * masks by a formula per module, twice a mask, most of the cost of a code. Here the code is made once with
 * mask 0 (no choosing), unmasked, and each mask is applied from a table and scored over the bytes, with the
 * same format bits and the same penalty rules (maskPenalty); the first lowest score wins, as in qrcode.
 */
export function bestMaskCode(text: string): { modules: Modules; maskPattern: number } {
  const q = qrcode().create(text, { errorCorrectionLevel: 'M', maskPattern: 0 }) as unknown as {
    modules: BitMatrix;
    errorCorrectionLevel: unknown;
  };
  const m = q.modules;
  const n = m.size;
  const masks = masksFor(m);
  const formatBits = formatInfo().getEncodedBits;
  const raw = Uint8Array.from(m.data);
  const mask0 = masks[0]!;
  for (let i = 0; i < raw.length; i++) raw[i]! ^= mask0[i]!;
  const work = new Uint8Array(raw.length);
  let best = 0;
  let lowest = Infinity;
  for (let p = 0; p < masks.length; p++) {
    work.set(raw);
    setFormat(work, n, formatBits(q.errorCorrectionLevel, p));
    const mask = masks[p]!;
    for (let i = 0; i < work.length; i++) work[i]! ^= mask[i]!;
    const penalty = maskPenalty(work, n);
    if (penalty < lowest) {
      lowest = penalty;
      best = p;
    }
  }
  if (best === 0) return { modules: m, maskPattern: 0 };
  work.set(raw);
  setFormat(work, n, formatBits(q.errorCorrectionLevel, best));
  const mask = masks[best]!;
  for (let i = 0; i < work.length; i++) work[i]! ^= mask[i]!;
  return { modules: { size: n, data: work, get: (row, col) => work[row * n + col]! }, maskPattern: best };
}
