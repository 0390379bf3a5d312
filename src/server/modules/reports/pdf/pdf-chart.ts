/** The pressure–time chart of src/shared/chart drawn as PDF vector paths (the web draws the same primitives as SVG). */
import { buildChart, type Box, type Sample } from '../../../../shared/chart/index';
import { fillColor, pdfNumber, strokeColor, writeText } from '../../../lib/pdf-kit/pdf-text';

type Doc = PDFKit.PDFDocument;

export const CHART_FONT_SIZE = 7;

/** Curve coordinates are written to a tenth of a point: a quarter of a dot of a 300 dpi print. */
const CURVE_STEP = 10;

/**
 * `${k / 10}` for an integer k, as JavaScript writes it (the shortest decimal that reads back as k / 10, so the
 * integer part and at most one decimal), from integers: writing a fraction is the costly part of a number.
 */
function tenths(k: number): string {
  // (Whole figures, and anything not a safe integer, as JavaScript writes them.)
  if (k % 10 === 0 || !(Math.abs(k) < 1e15)) return `${k / 10}`;
  const a = k < 0 ? -k : k;
  return `${k < 0 ? '-' : ''}${(a - (a % 10)) / 10}.${a % 10}`;
}

/**
 * The curve (already reduced to the plot's width by buildChart) as PDF path operators: `x y m`, then `x y l`
 * for each point that differs from the one before at a tenth of a point. A point equal to its predecessor
 * draws nothing, so the stroked shape is the same.
 */
export function curvePath(points: ReadonlyArray<readonly [number, number]>): string {
  const parts: string[] = [];
  let px = NaN;
  let py = NaN;
  for (const [x0, y0] of points) {
    // In tenths of a point: the same figures as Math.round(v * CURVE_STEP) / CURVE_STEP written out.
    const x = Math.round(x0 * CURVE_STEP);
    const y = Math.round(y0 * CURVE_STEP);
    if (x === px && y === py) continue;
    parts.push(`${tenths(x)} ${tenths(y)} ${parts.length === 0 ? 'm' : 'l'}`);
    px = x;
    py = y;
  }
  // A single point still needs a segment to be a path pdfkit's stroke can close.
  if (parts.length === 1) parts.push(`${tenths(px)} ${tenths(py)} l`);
  return parts.join('\n');
}

export function drawChart(
  doc: Doc,
  box: Box,
  input: { samples: readonly Sample[]; testPressure: number; holdingSeconds: number },
  labels: { x: string; y: string; reference: string; hold: string },
  fontName: string,
): void {
  const c = buildChart(input, box, { labels, fontSize: CHART_FONT_SIZE });
  doc.save();
  if (c.hold) {
    doc.rect(c.hold.x, c.hold.y, c.hold.width, c.hold.height).fillColor('#e3f2fd').fill();
  }
  // Grid and axes as pdfkit's moveTo and lineTo write them (the same figures), each set as one piece of content.
  const lines = (segments: ReadonlyArray<{ x1: number; y1: number; x2: number; y2: number }>) => {
    if (segments.length === 0) return;
    doc.addContent(segments.map((g) => `${pdfNumber(g.x1)} ${pdfNumber(g.y1)} m\n${pdfNumber(g.x2)} ${pdfNumber(g.y2)} l`).join('\n'));
  };
  strokeColor(doc.lineWidth(0.3), '#d0d0d0');
  lines(c.grid);
  doc.stroke();
  strokeColor(doc.lineWidth(0.6), '#555555');
  lines([c.xAxis.line, c.yAxis.line]);
  doc.stroke();
  if (c.reference) {
    doc.lineWidth(0.6).strokeColor('#c62828').dash(3, { space: 2 });
    doc.moveTo(c.reference.x1, c.reference.y1).lineTo(c.reference.x2, c.reference.y2).stroke();
    doc.undash();
  }
  if (c.curve.length > 1) {
    doc.lineWidth(0.8).strokeColor('#1565c0').lineJoin('round');
    // One content operation for the whole polyline: pdfkit's moveTo/lineTo format and convert each point
    // as its own operation (same operators, same page coordinates).
    doc.addContent(curvePath(c.curve));
    doc.stroke();
  }
  fillColor(doc.font(fontName).fontSize(CHART_FONT_SIZE), '#333333');
  for (const tx of c.texts) {
    const w = doc.widthOfString(tx.text);
    const h = CHART_FONT_SIZE * 1.2;
    const dx = tx.anchor === 'middle' ? -w / 2 : tx.anchor === 'end' ? -w : 0;
    const dy = tx.baseline === 'middle' ? -h / 2 : tx.baseline === 'bottom' ? -h : 0;
    if (tx.rotate) {
      doc.save();
      doc.rotate(tx.rotate, { origin: [tx.x, tx.y] });
      // Turned -90° about (x, y): the text runs upwards, centred on the plot's middle.
      writeText(doc, tx.text, tx.x + dx, tx.y + dy + (tx.role === 'yTitle' ? 0 : 0));
      doc.restore();
    } else {
      writeText(doc, tx.text, tx.x + dx, tx.y + dy);
    }
  }
  doc.restore();
}
