/** The report page's furniture: footer and page numbers, written once the page count is known. */
import { fillColor, wrapText, writeText } from '../../../lib/pdf-kit/pdf-text';
import { REGULAR as R } from '../../../lib/pdf-kit/fonts';
import { t } from '../format';
import type { ReportModel } from '../report-model';
import { M, MUTED, PAGE, RULE, W } from './report-layout';

type Doc = PDFKit.PDFDocument;

export /** Footer text and "Page N of M" on every page, as pagination artifacts (written once the page count is known). */
function pageFurniture(doc: Doc, m: ReportModel): void {
  const range = doc.bufferedPageRange();
  const footerY = PAGE.height - M.bottom + 16;
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Text below the bottom margin would make pdfkit start a new page: lift the margin while writing.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.markContent('Artifact', { type: 'Pagination' });
    doc
      .moveTo(M.left, footerY - 6)
      .lineTo(M.left + W, footerY - 6)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
    fillColor(doc.font(R).fontSize(7.5), MUTED);
    const pageText = t(m.language, 'page', { page: i + 1, pages: range.count });
    const pageWidth = doc.widthOfString(pageText);
    writeText(doc, pageText, M.left + W - pageWidth, footerY);
    const footer = [m.footer, `${m.number}`].filter(Boolean).join(' · ');
    // A footer of one line is written as one line (pdfkit's ellipsis applies only to a text it must break).
    if (wrapText(doc, footer, W - pageWidth - 16).lines.length === 1) writeText(doc, footer, M.left, footerY, W - pageWidth - 16);
    else doc.text(footer, M.left, footerY, { width: W - pageWidth - 16, height: 30, ellipsis: true });
    doc.endMarkedContent();
    doc.page.margins.bottom = bottom;
  }
}
