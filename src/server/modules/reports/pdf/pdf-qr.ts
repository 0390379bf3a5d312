/** The verification QR code as vector squares (one path, one fill): crisp at any zoom and a few hundred bytes. */
import QRCode, { type QRCodeMaskPattern } from 'qrcode';

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
  const qr = QRCode.create(text, {
    errorCorrectionLevel: 'M',
    ...(options.maskPattern === undefined ? {} : { maskPattern: options.maskPattern }),
  });
  const n = qr.modules.size;
  const quiet = 2;
  const cell = size / (n + quiet * 2);
  doc.save();
  doc.rect(x, y, size, size).fillColor('#ffffff').fill();
  for (let r = 0; r < n; r++) {
    // A run of dark modules in a row is one rectangle: half the path of one square per module.
    for (let c = 0; c < n; c++) {
      if (!qr.modules.get(r, c)) continue;
      let end = c + 1;
      while (end < n && qr.modules.get(r, end)) end++;
      doc.rect(x + (c + quiet) * cell, y + (r + quiet) * cell, (end - c) * cell + 0.01, cell + 0.01);
      c = end;
    }
  }
  doc.fillColor('#000000').fill();
  doc.restore();
}
