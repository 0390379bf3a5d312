/**
 * The report PDF (pdfkit): tagged (headings, tables, paragraphs, figures with alternative text, page
 * furniture as artifacts), PDF/A-3a with its data as the associated file test-report.json, one embedded
 * font (Noto Sans TC, subset), vector chart and QR code. Signing is a separate step (src/server/lib/signing/signing.ts) over the
 * bytes this returns with `signature` set; without it the PDF is unsigned (the benchmark compares both).
 */
import { materialsTable } from './materials-table';
import { REPORT_ATTACHMENT_NAME, formatReportCode } from '../../../../shared/contract/reports';
import { drawQr } from '../../../lib/pdf-kit/pdf-qr';
import { docKey, formatDate, formatDay, PDF_LANG, standardWithEdition, t } from '../format';
import { BOLD as B, isSharedSubset, REGULAR as R, reportFonts, shareWidths } from '../../../lib/pdf-kit/fonts';
import { collectPdf, compressStreamsFast } from '../../../lib/pdf-kit/pdf-streams';
import { attachFile } from '../../../lib/pdf-kit/pdf-attachment';
import { fillColor, writeText } from '../../../lib/pdf-kit/pdf-text';
import { pageFurniture } from './page-furniture';
import { loadPdfkit } from '../../../lib/pdfkit';
import { embeddedData } from '../proof';
import { proofQrText } from '../../../../shared/offline-proof';
import type { ReportModel } from '../report-model';
import { orderRows } from '../format-order';
import { validationLines } from './validation-lines';
import { compactTests, summaryTable, testBlock, testNotes } from './test-blocks';
import { ratingRows } from './rating-rows';
import { labelled } from '../../../../shared/i18n/punctuation';
import { addSignaturePlaceholder, finishSignatureForm, type PlaceholderOptions } from '../../../lib/signing/signature-placeholder';

import { artifact, ensureSpace, FAIL, INK, M, MUTED, RULE, W } from './report-layout';
import { certificateLook } from './certificate-look';

type Doc = PDFKit.PDFDocument;

export interface RenderOptions {
  /** add a signature field and placeholder for signing.ts to fill */
  signature?: PlaceholderOptions;
}

export async function renderReportPdf(m: ReportModel, opts: RenderOptions = {}): Promise<Buffer> {
  const lang = m.language;
  const PDFDocument = await loadPdfkit();
  const fonts = reportFonts();
  const title = t(lang, `title.${docKey(m.documentType)}`);
  const doc: Doc = new PDFDocument({
    size: 'A4',
    margins: M,
    autoFirstPage: false,
    bufferPages: true,
    tagged: true,
    subset: 'PDF/A-3a',
    pdfVersion: '1.7',
    lang: PDF_LANG[lang],
    displayTitle: true,
    // No default font: pdfkit would otherwise open Helvetica, which PDF/A forbids unembedded.
    font: '',
    info: {
      Title: `${title} ${m.number}`,
      Author: m.company.name,
      Subject: t(lang, 'subject', { serial: m.serial, product: m.product.name }),
      Keywords: `${m.serial}, ${m.number}, EN 10204, ${m.standard?.name ?? ''}`.replace(/, $/, ''),
      Creator: 'Test Report Center',
      Producer: 'Test Report Center (pdfkit)',
      CreationDate: m.issuedAt,
      ModDate: m.issuedAt,
    },
  });
  const done = collectPdf(doc);
  compressStreamsFast(doc, isSharedSubset);
  // Registered under their PostScript names (see fonts.ts), so that pdfkit finds an opened face again.
  doc.registerFont(R, fonts.regular, R);
  doc.registerFont(B, fonts.bold, B);
  // Opened in this order (R is the document's F1), each made to share measured widths, R selected.
  for (const face of [R, B]) shareWidths((doc.font(face) as unknown as { _font: unknown })._font);
  doc.font(R);
  doc.addPage();

  const json = embeddedData(m);
  attachFile(doc, {
    name: REPORT_ATTACHMENT_NAME,
    data: json,
    type: 'application/json',
    relationship: 'Data',
    description: t(lang, 'attachmentDescription'),
    date: m.issuedAt,
  });

  const root = doc.struct('Document');
  doc.addStructure(root);
  const para = (text: string, o: { size?: number; color?: string; font?: string; gap?: number; width?: number; x?: number } = {}) => {
    root.add(
      doc.struct('P', () => {
        fillColor(doc.font(o.font ?? R).fontSize(o.size ?? 9), o.color ?? INK);
        writeText(doc, text, o.x ?? M.left, doc.y, o.width ?? W);
      }),
    );
    doc.y += o.gap ?? 4;
  };
  // Tests without charts: the compact look (certificate-look.ts).
  const look = certificateLook(compactTests(m));
  const { gap, h2 } = look;
  doc.lineGap(look.lineGap);
  const heading = (tag: 'H1' | 'H2' | 'H3', text: string, size: number, color = INK) => {
    // A heading never ends a page: it keeps room for a few lines of what it heads.
    ensureSpace(doc, size * 2 + look.headingRoom);
    root.add(
      doc.struct(tag, () => {
        fillColor(doc.font(B).fontSize(size), color);
        writeText(doc, text, M.left, doc.y, W);
      }),
    );
    doc.y += size * 0.3;
  };

  // Header: logo, company name and address; a rule under it.
  const top = doc.y;
  let textX = M.left;
  const logo = m.company.logo;
  if (logo) {
    root.add(
      doc.struct('Figure', { alt: m.company.name }, () => {
        doc.image(logo, M.left, top, { fit: [110, 46] });
      }),
    );
    textX = M.left + 122;
  }
  doc.y = top;
  root.add(
    doc.struct('P', () => {
      fillColor(doc.font(B).fontSize(13), INK);
      writeText(doc, m.company.name, textX, top, W - (textX - M.left));
    }),
  );
  if (m.company.address) {
    root.add(
      doc.struct('P', () => {
        fillColor(doc.font(R).fontSize(8.5), MUTED);
        writeText(doc, m.company.address, textX, doc.y + 1, W - (textX - M.left));
      }),
    );
  }
  doc.y = Math.max(doc.y, top + look.headerHeight(Boolean(logo))) + 6;
  artifact(doc, () =>
    doc
      .moveTo(M.left, doc.y)
      .lineTo(M.left + W, doc.y)
      .lineWidth(1)
      .strokeColor(RULE)
      .stroke(),
  );
  doc.y += look.afterRule;

  heading('H1', `${title}`, look.title);
  para(t(lang, `documentType.${docKey(m.documentType)}`), { color: MUTED, size: 9, gap: look.documentTypeGap });
  // A 2.2 printing the unit's own results says so (docs/decisions/0049-test-report-2-2-says-specific.md).
  if (m.documentType === 'test-report-2.2') para(t(lang, 'documentType.testReportSpecific'), { color: MUTED, size: 8, gap: 8 });

  // Key facts beside the QR code.
  const qrSize = look.qrSize;
  const factsTop = doc.y;
  const factRows: Array<[string, string]> = [
    [t(lang, 'field.number'), m.number],
    [t(lang, 'field.serial'), m.serial],
    [t(lang, 'field.product'), m.product.name],
    [t(lang, 'field.testStandard'), m.standard ? standardWithEdition(lang, m.standard) : t(lang, 'value.none')],
    [t(lang, 'field.productionDate'), formatDay(lang, m.productionDate)],
    [t(lang, 'field.range'), `${m.range.start} – ${m.range.end}`],
    [t(lang, 'field.issuedAt'), formatDate(lang, m.issuedAt)],
    [t(lang, 'field.code'), formatReportCode(m.code)],
  ];
  look.facts(doc, root, factRows, W - qrSize - look.qrGap, { full: 120, compact: 76 });
  const afterFacts = doc.y;
  root.add(
    doc.struct('Figure', { alt: t(lang, 'qrAlt', { url: m.verifyUrl }) }, () =>
      drawQr(doc, m.proof ? proofQrText(m.verifyUrl, m.proof) : m.verifyUrl, M.left + W - qrSize, factsTop, qrSize),
    ),
  );
  doc.y = Math.max(afterFacts, factsTop + qrSize) + gap;

  // The buyer's order (EN 10168 A06, A07): what a buyer's inspector matches the certificate against.
  if (m.order) {
    heading('H2', t(lang, 'heading.order'), h2);
    look.facts(doc, root, orderRows(lang, m.order), W, { full: 140, compact: 80 });
    doc.y += gap;
  }

  heading('H2', t(lang, 'heading.ratings'), h2);
  look.facts(doc, root, ratingRows(m), W, { full: 160, compact: 100 });
  doc.y += gap;
  if (m.materials.length) {
    heading('H2', t(lang, 'heading.materials'), h2);
    materialsTable(doc, root, m);
    doc.y += gap;
  }

  // The results' heading with its summary table (kept on one page) under it, not alone at a page's foot.
  ensureSpace(doc, 30 + 20 * (m.tests.length + 1));
  heading('H2', t(lang, 'heading.results'), h2);
  summaryTable(doc, root, m, look.compact);
  doc.y += 3;
  para(m.standard ? t(lang, 'judgedTo', { standard: m.standard.name, edition: m.standard.edition }) : t(lang, 'benchOnly'), {
    color: MUTED,
    size: 8,
    gap: 4,
  });
  doc.y += look.afterJudgedTo;
  if (look.compact) testNotes(m, (text) => para(text, { size: 7.5, color: MUTED, gap: 2 }));
  else for (const test of m.tests) testBlock(doc, root, m, test, heading);
  doc.y += look.afterTests;

  heading('H2', t(lang, 'heading.statement'), h2);
  para(m.statement, look.statement);
  // The releasing inspector's stamp stands to the right of the validation lines, which keep room for it.
  const stamp = m.release?.stamp ?? null;
  const stampBox = { width: 100, height: 50 };
  if (stamp) ensureSpace(doc, stampBox.height + 8);
  const validationTop = doc.y;
  for (const line of validationLines(m, { runOn: look.compact }))
    para(
      line.text,
      line.strong
        ? { ...look.strongLine, font: B, width: stamp ? W - stampBox.width - 12 : W }
        : { ...look.mutedLine, color: MUTED, width: stamp ? W - stampBox.width - 12 : W },
    );
  if (stamp) {
    root.add(
      doc.struct('Figure', { alt: t(lang, 'stampAlt', { name: m.inspectorName }) }, () => {
        doc.image(stamp, M.left + W - stampBox.width, validationTop, { fit: [stampBox.width, stampBox.height], align: 'right' });
      }),
    );
    doc.y = Math.max(doc.y, validationTop + stampBox.height + 4);
  }
  doc.y += look.beforeVerify;
  // The compact certificate's verification is a paragraph without a heading: its text says what it is.
  if (!look.verifyOnOneLine) heading('H2', t(lang, 'heading.verify'), h2);
  const code = `${labelled(lang, t(lang, 'field.code'), formatReportCode(m.code))} · ${m.verifyUrl}`;
  // The compact certificate runs the verification on as one paragraph, its code printed once (in the facts).
  if (look.verifyOnOneLine) para(`${t(lang, 'verifyText', { url: m.verifyPage })} ${m.verifyUrl}`, { size: 8, color: MUTED });
  else {
    para(t(lang, 'verifyText', { url: m.verifyPage }), { size: 8.5, color: MUTED, gap: 2 });
    para(code, { size: 8.5, color: MUTED });
  }
  if (m.verifyLocal) para(t(lang, 'verifyLocal', { url: m.verifyPage.replace(/\/search$/, '') }), { size: 8.5, color: FAIL });

  if (opts.signature) addSignaturePlaceholder(doc, opts.signature);
  root.end();
  pageFurniture(doc, m);
  doc.end();
  return opts.signature ? finishSignatureForm(await done) : done;
}
