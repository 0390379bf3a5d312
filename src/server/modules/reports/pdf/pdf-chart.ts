/** The pressure–time chart of src/shared/chart drawn as PDF vector paths (the web draws the same primitives as SVG). */
import { buildChart, type Box, type Sample } from '../../../../shared/chart/index';
import { fillColor, writeText } from './pdf-text';

type Doc = PDFKit.PDFDocument;

export const CHART_FONT_SIZE = 7;

/** Curve coordinates are written to a tenth of a point: a quarter of a dot of a 300 dpi print. */
const CURVE_STEP = 10;

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
    const x = Math.round(x0 * CURVE_STEP) / CURVE_STEP;
    const y = Math.round(y0 * CURVE_STEP) / CURVE_STEP;
    if (x === px && y === py) continue;
    parts.push(`${x} ${y} ${parts.length === 0 ? 'm' : 'l'}`);
    px = x;
    py = y;
  }
  // A single point still needs a segment to be a path pdfkit's stroke can close.
  if (parts.length === 1) parts.push(`${px} ${py} l`);
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
  doc.lineWidth(0.3).strokeColor('#d0d0d0');
  for (const g of c.grid) doc.moveTo(g.x1, g.y1).lineTo(g.x2, g.y2);
  doc.stroke();
  doc.lineWidth(0.6).strokeColor('#555555');
  for (const a of [c.xAxis.line, c.yAxis.line]) doc.moveTo(a.x1, a.y1).lineTo(a.x2, a.y2);
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
