/** The verification QR code as vector squares (one path, one fill): crisp at any zoom and a few hundred bytes. */
import QRCode from 'qrcode';

type Doc = PDFKit.PDFDocument;

/** Draws the code of `text` in a square of `size` points at (x, y), with its quiet zone inside the square. */
export function drawQr(doc: Doc, text: string, x: number, y: number, size: number): void {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const n = qr.modules.size;
  const quiet = 2;
  const cell = size / (n + quiet * 2);
  doc.save();
  doc.rect(x, y, size, size).fillColor('#ffffff').fill();
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      if (qr.modules.get(r, c)) doc.rect(x + (c + quiet) * cell, y + (r + quiet) * cell, cell + 0.01, cell + 0.01);
    }
  }
  doc.fillColor('#000000').fill();
  doc.restore();
}
