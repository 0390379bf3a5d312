/**
 * The nameplate labels PDF (pdfkit): one label per serial with its QR code (the unit's identification link), the
 * serial and the product name. Written page by page into a pdfkit document that the route streams to the
 * client: the loop waits whenever the client has not yet read what was written, so a 10,000-label file is
 * never held in memory (docs/decisions/0023-nameplate-labels-and-near-miss.md).
 */
import { labelLink, type LabelLayout } from '../../../shared/contract/labels';
import { formatSerial } from '../../../shared/serial';
import { BOLD, REGULAR, reportFonts } from '../../lib/pdf-kit/fonts';
import { drawQr } from '../../lib/pdf-kit/pdf-qr';
import { loadPdfkit } from '../../lib/pdfkit';

type Doc = PDFKit.PDFDocument;
/** A written object of the file: pdfkit keeps its dictionary (`data`) after writing it. */
type Written = { data: Record<string, unknown> } | undefined;

const MM = 72 / 25.4;

interface Geometry {
  page: [number, number];
  columns: number;
  rows: number;
  cell: { width: number; height: number };
  pad: number;
  qr: number;
  serialSize: number;
  nameSize: number;
}

/** A4 with 3 × 8 labels of 70 × 37.1 mm (the common 24-up sheet); one 50 × 30 mm label a page. */
export const LABEL_GEOMETRY: Record<LabelLayout, Geometry> = {
  sheet: {
    page: [595.28, 841.89],
    columns: 3,
    rows: 8,
    cell: { width: 595.28 / 3, height: 841.89 / 8 },
    pad: 3 * MM,
    qr: 841.89 / 8 - 6 * MM,
    serialSize: 9,
    nameSize: 7.5,
  },
  single: {
    page: [50 * MM, 30 * MM],
    columns: 1,
    rows: 1,
    cell: { width: 50 * MM, height: 30 * MM },
    pad: 1.5 * MM,
    qr: 24 * MM,
    serialSize: 8,
    nameSize: 6.5,
  },
};

export interface LabelPlan {
  prefix: string;
  width: number;
  from: bigint;
  to: bigint;
  productName: string;
  layout: LabelLayout;
  publicBaseUrl: string;
  /** the product's GTIN-14, or null: with it, each QR code is the unit's GS1 Digital Link */
  gtin: string | null;
  /** '' for real labels; else the word each label carries (its QR code opens this machine only) */
  testMark: string;
  title: string;
}

/** Bytes written but not yet read by the client before the loop waits for it. */
const BACKLOG_LIMIT = 1024 * 1024;

export async function createLabelsDocument(plan: LabelPlan): Promise<Doc> {
  const PDFDocument = await loadPdfkit();
  const g = LABEL_GEOMETRY[plan.layout];
  const fonts = reportFonts();
  const doc: Doc = new PDFDocument({
    size: g.page,
    margin: 0,
    autoFirstPage: false,
    compress: true,
    // No default font: pdfkit would otherwise open Helvetica, which only the report's faces replace.
    font: '',
    info: { Title: plan.title, Creator: 'Test Report Center', Producer: 'Test Report Center (pdfkit)' },
  });
  // Registered under their PostScript names, as the report does (reports/pdf/fonts.ts).
  doc.registerFont(REGULAR, fonts.regular, REGULAR);
  doc.registerFont(BOLD, fonts.bold, BOLD);
  doc.font(REGULAR);
  return doc;
}

/**
 * Text options for serials. Every serial is a word never seen before, which pdfkit's per-document cache of
 * shaped words and the process-wide one (reports/pdf/fonts.ts) would each keep: 10,000 of them for a full
 * file. Text with OpenType features stated is shaped afresh and kept by neither; an empty list states the
 * font's defaults, so the serial looks the same.
 */
const UNCACHED = { features: [] };

/** The serial's font size: the layout's, smaller (down to 4.5 pt) when a long serial would not fit the width. */
function fittedSize(doc: Doc, serial: string, width: number, max: number): number {
  doc.font(BOLD).fontSize(max);
  const w = doc.widthOfString(serial, UNCACHED);
  return w <= width ? max : Math.max(4.5, (max * width) / w);
}

function drawLabel(doc: Doc, plan: LabelPlan, g: Geometry, serial: string, x: number, y: number): void {
  const qrY = y + (g.cell.height - g.qr) / 2;
  drawQr(doc, labelLink(plan.publicBaseUrl, serial, plan.gtin), x + g.pad, qrY, g.qr, { maskPattern: 0 });
  const textX = x + g.pad + g.qr + g.pad;
  const textWidth = g.cell.width - (textX - x) - g.pad;
  const top = qrY + g.qr * 0.12;
  const size = fittedSize(doc, serial, textWidth, g.serialSize);
  doc
    .font(BOLD)
    .fontSize(size)
    .fillColor('#000000')
    .text(serial, textX, top, { width: textWidth, lineBreak: false, ...UNCACHED });
  const nameTop = top + size * 1.6;
  doc
    .font(REGULAR)
    .fontSize(g.nameSize)
    .text(plan.productName, textX, nameTop, { width: textWidth, height: qrY + g.qr - nameTop, ellipsis: true });
  if (plan.testMark) {
    // One line at the foot of the text column, made smaller where it would not fit: a wrapped line would
    // run past the label (and, on a label printer's page, start another page).
    const markSize = fittedSize(doc, plan.testMark, textWidth, g.nameSize);
    doc
      .font(BOLD)
      .fontSize(markSize)
      .fillColor('#b71c1c')
      .text(plan.testMark, textX, qrY + g.qr - markSize * 1.2, { width: textWidth, height: markSize * 1.3, lineBreak: false, ...UNCACHED })
      .fillColor('#000000');
  }
}

/**
 * A page's objects once pdfkit has written them (adding the next page ends it): the page tree keeps only
 * their references (written as "n 0 R"), so their dictionaries can go. Without this each page keeps a few
 * hundred bytes of objects until the end of the file.
 */
function forgetWrittenPage(page: PDFKit.PDFPage): void {
  const dictionary = page.dictionary as unknown as Written;
  const resources = dictionary?.data.Resources as Written;
  for (const ref of [page.content as unknown as Written, resources, dictionary]) if (ref) ref.data = {};
}

/** Resolves once the client has read the backlog down (or gave up: `stopped` then answers true). */
async function readDown(doc: Doc, stopped: () => boolean): Promise<void> {
  while (doc.readableLength > BACKLOG_LIMIT && !stopped()) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Draws every label of the plan, a page at a time, then ends the document. Between pages it yields to the
 * event loop (other requests go on) and waits while the client lags; `stopped` ends it early (the client left).
 */
export async function writeLabels(doc: Doc, plan: LabelPlan, stopped: () => boolean = () => false): Promise<void> {
  const g = LABEL_GEOMETRY[plan.layout];
  const perPage = g.columns * g.rows;
  let n = plan.from;
  while (n <= plan.to && !stopped()) {
    const previous = doc.page;
    doc.addPage({ size: g.page, margin: 0 });
    if (previous) forgetWrittenPage(previous);
    for (let i = 0; i < perPage && n <= plan.to; i++, n++) {
      const serial = formatSerial({ prefix: plan.prefix, width: plan.width, number: n });
      const col = i % g.columns;
      const row = Math.floor(i / g.columns);
      drawLabel(doc, plan, g, serial, col * g.cell.width, row * g.cell.height);
    }
    await readDown(doc, stopped);
    await new Promise((resolve) => setImmediate(resolve));
  }
  doc.end();
}
