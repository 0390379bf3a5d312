/**
 * The report PDF (pdfkit): tagged (headings, tables, paragraphs, figures with alternative text, page
 * furniture as artifacts), PDF/A-3a with its data as the associated file test-report.json, one embedded
 * font (Noto Sans TC, subset), vector chart and QR code. Signing is a separate step (src/server/lib/signing/signing.ts) over the
 * bytes this returns with `signature` set; without it the PDF is unsigned (the benchmark compares both).
 */
import { materialsTable } from './materials-table';
import { REPORT_ATTACHMENT_NAME, formatReportCode } from '../../../../shared/contract/reports';
import { drawChart } from './pdf-chart';
import { drawQr } from '../../../lib/pdf-kit/pdf-qr';
import {
  allowedLeakage,
  docKey,
  formatDate,
  formatDateTime,
  formatDay,
  formatNumber,
  mpa,
  PDF_LANG,
  requiredHold,
  pressureBasisText,
  requiredPressure,
  seconds,
  standardWithEdition,
  t,
  verdictText,
} from '../format';
import { npsLabel } from '../../../../shared/standards/sizes';
import { BOLD as B, isSharedSubset, REGULAR as R, reportFonts, shareWidths } from '../../../lib/pdf-kit/fonts';
import { collectPdf, compressStreamsFast } from '../../../lib/pdf-kit/pdf-streams';
import { attachFile } from '../../../lib/pdf-kit/pdf-attachment';
import { fillColor, writeText } from '../../../lib/pdf-kit/pdf-text';
import { pageFurniture } from './page-furniture';
import { loadPdfkit } from '../../../lib/pdfkit';
import { reportJson } from '../report-json';
import type { ReportModel, ReportTest } from '../report-model';
import { orderRows } from '../format-order';
import { conditionsRows, instrumentText, leakageText, ratings } from './test-values';
import { validationLines } from './validation-lines';
import { comma, labelled, semicolon } from '../../../../shared/i18n/punctuation';
import { addSignaturePlaceholder, finishSignatureForm, type PlaceholderOptions } from '../../../lib/signing/signature-placeholder';

import {
  artifact,
  type Cell,
  drawTable,
  ensureSpace,
  FAIL,
  INK,
  keyValueTable,
  M,
  MUTED,
  PASS,
  RULE,
  tableHeight,
  type TableLook,
  W,
} from './report-layout';

type Doc = PDFKit.PDFDocument;
type Struct = PDFKit.PDFStructureElement;

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

  const json = Buffer.from(JSON.stringify(reportJson(m)));
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
  const heading = (tag: 'H1' | 'H2' | 'H3', text: string, size: number, color = INK) => {
    // A heading never ends a page: it keeps room for a few lines of what it heads.
    ensureSpace(doc, size * 2 + 40);
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
  doc.y = Math.max(doc.y, top + 48) + 6;
  artifact(doc, () =>
    doc
      .moveTo(M.left, doc.y)
      .lineTo(M.left + W, doc.y)
      .lineWidth(1)
      .strokeColor(RULE)
      .stroke(),
  );
  doc.y += 12;

  heading('H1', `${title}`, 18);
  para(t(lang, `documentType.${docKey(m.documentType)}`), { color: MUTED, size: 9, gap: 8 });
  // A 2.2 printing the unit's own results says so (docs/decisions/0049-test-report-2-2-says-specific.md).
  if (m.documentType === 'test-report-2.2') para(t(lang, 'documentType.testReportSpecific'), { color: MUTED, size: 8, gap: 8 });

  // Key facts beside the QR code.
  const qrSize = 92;
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
  keyValueTable(doc, root, factRows, { width: W - qrSize - 16, labelWidth: 120 });
  const afterFacts = doc.y;
  root.add(
    doc.struct('Figure', { alt: t(lang, 'qrAlt', { url: m.verifyUrl }) }, () =>
      drawQr(doc, m.verifyUrl, M.left + W - qrSize, factsTop, qrSize),
    ),
  );
  doc.y = Math.max(afterFacts, factsTop + qrSize) + 12;

  // The buyer's order (EN 10168 A06, A07): what a buyer's inspector matches the certificate against.
  if (m.order) {
    heading('H2', t(lang, 'heading.order'), 12);
    keyValueTable(doc, root, orderRows(lang, m.order), { width: W, labelWidth: 140 });
    doc.y += 10;
  }

  heading('H2', t(lang, 'heading.ratings'), 12);
  const p = m.product;
  const ratingRows: Array<[string, string]> = [
    [t(lang, 'field.fluid'), t(lang, `fluid.${p.fluid}`)],
    ...(p.connection ? [[t(lang, 'field.connection'), p.connection] as [string, string]] : []),
    ...(p.application ? [[t(lang, 'field.application'), p.application] as [string, string]] : []),
    ...(p.applicationMedium ? [[t(lang, 'field.applicationMedium'), p.applicationMedium] as [string, string]] : []),
    ...(p.valveType ? [[t(lang, 'field.valveType'), t(lang, `valveType.${p.valveType}`)] as [string, string]] : []),
    ...(p.nominalSize ? [[t(lang, 'field.nominalSize'), `DN ${p.nominalSize} (${npsLabel(p.nominalSize)})`] as [string, string]] : []),
    ...(p.pressureClass ? [[t(lang, 'field.pressureClass'), p.pressureClass] as [string, string]] : []),
    ...(p.seatType
      ? [
          [
            t(lang, 'field.seatType'),
            `${t(lang, `seatType.${p.seatType}`)}${p.leakageRate && m.standard && m.standard.id !== 'api-598' ? `${comma(lang)}${t(lang, 'value.leakageRate', { rate: p.leakageRate })}` : ''}`,
          ] as [string, string],
        ]
      : []),
    ...(m.bodyMaterial ? [[t(lang, 'field.bodyMaterial'), t(lang, `material.${m.bodyMaterial}`)] as [string, string]] : []),
    // The unit's body material names its rating; a unit of unknown material prints every rating it may have.
    ...ratings(p, m.bodyMaterial).map(([key, v]) => [t(lang, `field.${key}`), mpa(lang, v)] as [string, string]),
    [
      t(lang, 'field.temperature'),
      t(lang, 'value.celsius', { min: formatNumber(lang, p.temperatureMin, 2), max: formatNumber(lang, p.temperatureMax, 2) }),
    ],
  ];
  keyValueTable(doc, root, ratingRows, { width: W, labelWidth: 160 });
  doc.y += 12;
  if (m.materials.length) {
    heading('H2', t(lang, 'heading.materials'), 12);
    materialsTable(doc, root, m);
    doc.y += 12;
  }

  // The results' heading with its summary table (kept on one page) under it, not alone at a page's foot.
  ensureSpace(doc, 30 + 20 * (m.tests.length + 1));
  heading('H2', t(lang, 'heading.results'), 12);
  summaryTable(doc, root, m);
  para(m.standard ? t(lang, 'judgedTo', { standard: m.standard.name, edition: m.standard.edition }) : t(lang, 'benchOnly'), {
    color: MUTED,
    size: 8,
    gap: 4,
  });
  doc.y += 10;
  for (const test of m.tests) testBlock(doc, root, m, test, heading);

  heading('H2', t(lang, 'heading.statement'), 12);
  para(m.statement, { size: 9.5, gap: 6 });
  for (const line of validationLines(m))
    para(line.text, line.strong ? { font: B, size: 9.5, gap: 6 } : { size: 8.5, color: MUTED, gap: 6 });
  heading('H2', t(lang, 'heading.verify'), 12);
  para(t(lang, 'verifyText', { url: m.verifyPage }), { size: 8.5, color: MUTED, gap: 2 });
  para(`${labelled(lang, t(lang, 'field.code'), formatReportCode(m.code))} · ${m.verifyUrl}`, { size: 8.5, color: MUTED });
  if (m.verifyLocal) para(t(lang, 'verifyLocal', { url: m.verifyPage.replace(/\/search$/, '') }), { size: 8.5, color: FAIL });

  if (opts.signature) addSignaturePlaceholder(doc, opts.signature);
  root.end();
  pageFurniture(doc, m);
  doc.end();
  return opts.signature ? finishSignatureForm(await done) : done;
}

/**
 * One line per test, required beside measured (test pressure, hold, leakage) and the judgement: the answer
 * at a glance, on page one.
 */
function summaryTable(doc: Doc, root: Struct, m: ReportModel): void {
  const lang = m.language;
  const head: Cell[] = ['test', 'testPressure', 'holding', 'leakage', 'verdict'].map((k) => ({
    text: t(lang, `field.${k}`),
    header: 'Column' as const,
  }));
  ensureSpace(doc, (m.tests.length + 1) * 26);
  const rows: Cell[][] = m.tests.map((x) => {
    const r = x.requirement;
    const line = (measured: string, required: string | null) => (required ? t(lang, 'required.line', { measured, required }) : measured);
    const ok = x.verdict === 'not-assessed' ? x.result === 'pass' : x.verdict === 'conforms' && x.result === 'pass';
    return [
      { text: t(lang, `test.${x.testType}`), header: 'Row' as const, color: INK },
      { text: line(mpa(lang, x.testPressure), r ? requiredPressure(lang, r) : null) },
      { text: line(seconds(lang, x.holdingSeconds), r ? requiredHold(lang, r) : null) },
      { text: line(leakageText(lang, x), r ? allowedLeakage(lang, r) : null) },
      { text: verdictText(lang, x), bold: true, color: ok ? PASS : FAIL },
    ];
  });
  drawTable(doc, root, [head, ...rows], [70, 110, 90, W - 70 - 110 - 90 - 110, 110], { size: 8, pad: 2.5 });
}

function testBlock(
  doc: Doc,
  root: Struct,
  m: ReportModel,
  x: ReportTest,
  heading: (tag: 'H3', text: string, size: number, color?: string) => void,
): void {
  const lang = m.language;
  const c = x.checks;
  const req = x.requirement;
  const rows: Array<[string, string]> = [
    [t(lang, 'field.medium'), t(lang, `medium.${x.medium}`)],
    [
      t(lang, 'field.testPressure'),
      req
        ? t(lang, 'required.line', { measured: mpa(lang, x.testPressure), required: requiredPressure(lang, req) })
        : mpa(lang, x.testPressure),
    ],
    ...(req?.pressureBasis ? [[t(lang, 'field.pressureBasis'), pressureBasisText(lang, req) ?? ''] as [string, string]] : []),
    [
      t(lang, 'field.holding'),
      req
        ? t(lang, 'required.line', { measured: seconds(lang, x.holdingSeconds), required: requiredHold(lang, req) })
        : seconds(lang, x.holdingSeconds),
    ],
    [
      t(lang, 'field.leakage'),
      req ? t(lang, 'required.line', { measured: leakageText(lang, x), required: allowedLeakage(lang, req) }) : leakageText(lang, x),
    ],
    [t(lang, 'field.verdict'), verdictText(lang, x)],
    ...(x.reasons.length
      ? [[t(lang, 'field.reasons'), x.reasons.map((code) => t(lang, `reason.${code}`)).join(semicolon(lang))] as [string, string]]
      : []),
    [t(lang, 'field.result'), t(lang, 'value.benchResult', { result: t(lang, `result.${x.result}`) })],
    [t(lang, 'field.testedAt'), formatDateTime(lang, x.testedAt)],
    [t(lang, 'field.bench'), x.bench ?? t(lang, 'value.none')],
    ...(x.enteredBy
      ? [[t(lang, 'field.enteredBy'), t(lang, 'value.enteredBy', { name: x.enteredBy.name, file: x.enteredBy.file })] as [string, string]]
      : []),
    [t(lang, 'field.operator'), x.operator || t(lang, 'value.none')],
    ...(x.instrument ? [[t(lang, 'field.instrument'), instrumentText(lang, x.instrument)] as [string, string]] : []),
    ...conditionsRows(lang, x),
    [t(lang, 'field.retests'), x.earlierTests > 0 ? t(lang, 'value.retests', { count: x.earlierTests }) : t(lang, 'value.noRetests')],
    ...(req
      ? [[t(lang, 'field.testStandard'), standardWithEdition(lang, { name: req.standardName, edition: req.edition })] as [string, string]]
      : []),
  ];
  if (c) {
    rows.push([t(lang, 'field.peak'), c.reached ? mpa(lang, c.peak) : `${mpa(lang, c.peak)} (${t(lang, 'value.notReached')})`]);
    rows.push([
      t(lang, 'field.held'),
      c.holdMet ? seconds(lang, c.heldSeconds) : t(lang, 'value.heldShort', { value: formatNumber(lang, c.heldSeconds, 1) }),
    ]);
    rows.push([t(lang, 'field.drop'), c.drop === null ? t(lang, 'value.none') : mpa(lang, c.drop)]);
  }
  const tableWidth = 282;
  const look: TableLook = { width: tableWidth, labelWidth: 132, size: 8.5, pad: 2.2 };
  const chartHeight = 170;
  // A test's table and chart stay together on one page: measured, not guessed (labels wrap in English).
  ensureSpace(doc, Math.max(tableHeight(doc, rows, look), chartHeight) + 30);
  const ok = x.verdict === 'not-assessed' ? x.result === 'pass' : x.verdict === 'conforms' && x.result === 'pass';
  heading('H3', `${t(lang, `test.${x.testType}`)} — ${verdictText(lang, x)}`, 10.5, ok ? PASS : FAIL);
  const top = doc.y;
  keyValueTable(doc, root, rows, look);
  const bottom = doc.y;
  const box = { x: M.left + tableWidth + 12, y: top, width: W - tableWidth - 12, height: chartHeight };
  if (x.samples.length > 0) {
    const alt = t(lang, 'chart.alt', {
      test: t(lang, `test.${x.testType}`),
      count: formatNumber(lang, x.samples.length, 0),
      peak: formatNumber(lang, c?.peak ?? 0),
      pressure: formatNumber(lang, x.testPressure),
    });
    root.add(
      doc.struct('Figure', { alt }, () =>
        drawChart(
          doc,
          box,
          // With a standard the chart draws what the test had to reach: the required pressure and the minimum hold.
          req?.pressureMin != null
            ? { samples: x.samples, testPressure: req.pressureMin, holdingSeconds: req.holdMin }
            : { samples: x.samples, testPressure: x.testPressure, holdingSeconds: x.holdingSeconds },
          req?.pressureMin != null
            ? { x: t(lang, 'chart.x'), y: t(lang, 'chart.y'), reference: t(lang, 'chart.required'), hold: t(lang, 'chart.minHold') }
            : { x: t(lang, 'chart.x'), y: t(lang, 'chart.y'), reference: t(lang, 'chart.reference'), hold: t(lang, 'chart.hold') },
          R,
        ),
      ),
    );
  } else {
    root.add(
      doc.struct('P', () => {
        fillColor(doc.font(R).fontSize(8.5), MUTED);
        writeText(doc, t(lang, 'value.noSamples'), box.x, top + 4, box.width);
      }),
    );
  }
  doc.x = M.left;
  doc.y = Math.max(bottom, top + box.height) + 14;
}
