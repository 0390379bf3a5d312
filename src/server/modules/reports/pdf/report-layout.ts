/**
 * The report page's geometry, colours and tables (pdfkit): tagged tables whose rules and backgrounds are
 * artifacts, rows measured before they are drawn so that a row never breaks across pages.
 */
import { fillColor, pdfNumber, strokeColor, textHeight, writeText } from '../../../lib/pdf-kit/pdf-text';
import { BOLD as B, REGULAR as R } from '../../../lib/pdf-kit/fonts';

type Doc = PDFKit.PDFDocument;
type Struct = PDFKit.PDFStructureElement;

export const PAGE = { width: 595.28, height: 841.89 };
export const M = { top: 40, left: 42, right: 42, bottom: 58 };
export const W = PAGE.width - M.left - M.right;
export const INK = '#1a1a1a';
export const MUTED = '#555555';
export const RULE = '#b0b7c3';
export const PASS = '#1b5e20';
export const FAIL = '#b71c1c';

/** Keeps at least `h` points on the page, else starts the next one. */
export function ensureSpace(doc: Doc, h: number): void {
  if (doc.y + h > PAGE.height - M.bottom) doc.addPage();
}

/** Drawing that is not content (rules, backgrounds): marked as an artifact so screen readers skip it. */
export function artifact(doc: Doc, draw: () => void): void {
  doc.markContent('Artifact', { type: 'Layout' });
  draw();
  doc.endMarkedContent();
}

/**
 * `doc.heightOfString(text, { width })` in face `font` at `size`, from the lines it wraps into, kept for every
 * report of the process (pdf-text.ts): each table cell is measured before it is drawn (and a test's table
 * once more to keep it on one page). Leaves that face and size selected.
 */
export function measuredHeight(doc: Doc, font: string, size: number, text: string, width: number): number {
  doc.font(font).fontSize(size);
  return textHeight(doc, text, width);
}

export interface TableLook {
  width: number;
  labelWidth: number;
  /** value font size; labels are half a point smaller */
  size?: number;
  /** vertical padding of a cell */
  pad?: number;
}

/** The height a key–value table will take, measured with the same fonts and widths as it is drawn. */
export function tableHeight(doc: Doc, rows: Array<[string, string]>, o: TableLook): number {
  const size = o.size ?? 9;
  const pad = o.pad ?? 3;
  let h = 0;
  for (const [k, v] of rows) {
    const kh = measuredHeight(doc, B, size - 0.5, k, o.labelWidth - 8);
    const vh = measuredHeight(doc, R, size, v, o.width - o.labelWidth - 8);
    h += Math.max(kh, vh) + pad * 2 + 0.5;
  }
  return h;
}

/**
 * A tagged table (Table, TR, TH with a scope, TD) drawn directly: pdfkit's own table module measures and
 * wraps every cell twice and was half of a report's time. Rules are artifacts; a row that would cross the
 * bottom margin starts the next page.
 */
export interface Cell {
  text: string;
  header?: 'Row' | 'Column';
  bold?: boolean;
  color?: string;
  /** columns the cell spans (a test's conditions under its line); 1 unless told */
  span?: number;
  /** font size, where smaller than the table's */
  size?: number;
}

/** Each cell's width: the widths of the columns it spans. */
function cellWidths(row: Cell[], widths: number[]): number[] {
  let col = 0;
  return row.map((c) => {
    const n = c.span ?? 1;
    const w = widths.slice(col, col + n).reduce((a, b) => a + b, 0);
    col += n;
    return w;
  });
}

export function drawTable(doc: Doc, root: Struct, rows: Cell[][], widths: number[], o: { size: number; pad: number; x?: number }): void {
  const x0 = o.x ?? M.left;
  const total = widths.reduce((a, b) => a + b, 0);
  const table = doc.struct('Table');
  root.add(table);
  const sizeOf = (c: Cell) => c.size ?? (c.header ? o.size - 0.5 : o.size);
  for (const row of rows) {
    const cw = cellWidths(row, widths);
    const heights = row.map((c, i) => measuredHeight(doc, c.bold || c.header ? B : R, sizeOf(c), c.text || ' ', cw[i]! - 8));
    const h = Math.max(...heights) + o.pad * 2;
    if (doc.y + h > PAGE.height - M.bottom) doc.addPage();
    const y = doc.y;
    artifact(doc, () => {
      strokeColor(doc.lineWidth(0.5), RULE);
      // The row's frame and column rules as pdfkit's rect, moveTo, lineTo and stroke write them (the same
      // figures), as one piece of content.
      const ops = [`${pdfNumber(x0)} ${pdfNumber(y)} ${pdfNumber(total)} ${pdfNumber(h)} re`, 'S'];
      let x = x0;
      for (let i = 0; i < cw.length - 1; i++) {
        x += cw[i]!;
        ops.push(`${pdfNumber(x)} ${pdfNumber(y)} m`, `${pdfNumber(x)} ${pdfNumber(y + h)} l`, 'S');
      }
      doc.addContent(ops.join('\n'));
    });
    const tr = doc.struct('TR');
    table.add(tr);
    let x = x0;
    row.forEach((c, i) => {
      const cell = doc.struct(c.header ? 'TH' : 'TD', () => {
        fillColor(doc.font(c.bold || c.header ? B : R).fontSize(sizeOf(c)), c.color ?? (c.header ? MUTED : INK));
        // The lines measured above are written as they are (pdf-text.ts).
        writeText(doc, c.text, x + 4, y + o.pad, cw[i]! - 8);
      });
      if (c.header) cell.dictionary.data.A = { O: 'Table', Scope: c.header };
      else if (c.span && c.span > 1) cell.dictionary.data.A = { O: 'Table', ColSpan: c.span };
      tr.add(cell);
      x += cw[i]!;
    });
    tr.end();
    doc.y = y + h;
  }
  table.end();
  doc.x = M.left;
}

export function keyValueTable(doc: Doc, root: Struct, rows: Array<[string, string]>, o: TableLook): void {
  const size = o.size ?? 9;
  drawTable(
    doc,
    root,
    rows.map(([k, v]) => [{ text: k, header: 'Row' as const }, { text: v }]),
    [o.labelWidth, o.width - o.labelWidth],
    { size, pad: o.pad ?? 3 },
  );
}

/**
 * A key–value table two pairs a row (label, value, label, value): half the height of keyValueTable for
 * short values, where a page must hold more (a certificate of tests without charts).
 */
export function pairsTable(doc: Doc, root: Struct, rows: Array<[string, string]>, o: TableLook): void {
  const half = o.width / 2;
  const cells: Cell[][] = [];
  for (let i = 0; i < rows.length; i += 2) {
    const pair = (r: [string, string] | undefined): Cell[] =>
      r ? [{ text: r[0], header: 'Row' }, { text: r[1] }] : [{ text: '' }, { text: '' }];
    cells.push([...pair(rows[i]), ...pair(rows[i + 1])]);
  }
  drawTable(doc, root, cells, [o.labelWidth, half - o.labelWidth, o.labelWidth, half - o.labelWidth], {
    size: o.size ?? 9,
    pad: o.pad ?? 3,
  });
}
