/**
 * The tests on the certificate: the summary table (one line per test, required beside measured), and either a
 * block per test (its table and pressure–time chart) or, when no test has samples to chart, each test's
 * conditions on a line under its judgement, so that a unit with four tests stays on one page.
 */
import { drawChart } from './pdf-chart';
import {
  allowedLeakage,
  formatDateTime,
  formatNumber,
  mpa,
  pressureBasisText,
  requiredHold,
  requiredPressure,
  seconds,
  standardWithEdition,
  t,
  verdictText,
} from '../format';
import { REGULAR as R } from '../../../lib/pdf-kit/fonts';
import { fillColor, writeText } from '../../../lib/pdf-kit/pdf-text';
import type { ReportModel, ReportTest } from '../report-model';
import { conditionsRows, instrumentText, leakageText } from './test-values';
import { enumerate, labelled, semicolon } from '../../../../shared/i18n/punctuation';
import {
  type Cell,
  drawTable,
  ensureSpace,
  FAIL,
  INK,
  keyValueTable,
  M,
  MUTED,
  PASS,
  tableHeight,
  type TableLook,
  W,
} from './report-layout';

type Doc = PDFKit.PDFDocument;
type Struct = PDFKit.PDFStructureElement;

/**
 * One line per test, required beside measured (test pressure, hold, leakage) and the judgement: the answer
 * at a glance, on page one. On a compact certificate each line has the test's conditions under it: the
 * medium; when, where and by whom; the instrument and its calibration; the fluid's temperature and the side;
 * retests. What a test block prints, without its chart.
 */
export function summaryTable(doc: Doc, root: Struct, m: ReportModel, compact = false): void {
  const lang = m.language;
  const head: Cell[] = ['test', 'testPressure', 'holding', 'leakage', 'verdict'].map((k) => ({
    text: t(lang, `field.${k}`),
    header: 'Column' as const,
  }));
  ensureSpace(doc, (m.tests.length + 1) * (compact ? 36 : 26));
  const rows: Cell[][] = m.tests.flatMap((x) => {
    const r = x.requirement;
    const line = (measured: string, required: string | null) => (required ? t(lang, 'required.line', { measured, required }) : measured);
    const ok = x.verdict === 'not-assessed' ? x.result === 'pass' : x.verdict === 'conforms' && x.result === 'pass';
    const main: Cell[] = [
      { text: t(lang, `test.${x.testType}`), header: 'Row' as const, color: INK },
      { text: line(mpa(lang, x.testPressure), r ? requiredPressure(lang, r) : null) },
      { text: line(seconds(lang, x.holdingSeconds), r ? requiredHold(lang, r, compact) : null) },
      { text: line(leakageText(lang, x), r ? allowedLeakage(lang, r) : null) },
      { text: verdictText(lang, x), bold: true, color: ok ? PASS : FAIL },
    ];
    return compact ? [main, [{ text: conditionsLine(lang, x), span: 5, size: 7, color: MUTED }]] : [main];
  });
  // Required beside measured wraps least when the three value columns share what the test's name and the
  // judgement leave; the compact certificate gives the leakage, the longest, the most.
  const widths = compact ? [58, 122, 100, W - 58 - 122 - 100 - 62, 62] : [58, 128, 112, W - 58 - 128 - 112 - 62, 62];
  drawTable(doc, root, [head, ...rows], widths, { size: 8, pad: compact ? 2 : 2.5 });
}

/** A test's conditions as one line under its judgement on a compact certificate. */
function conditionsLine(lang: ReportModel['language'], x: ReportTest): string {
  const none = t(lang, 'value.none');
  return [
    t(lang, `medium.${x.medium}`),
    formatDateTime(lang, x.testedAt),
    x.bench ?? none,
    x.operator || none,
    ...(x.enteredBy
      ? [labelled(lang, t(lang, 'field.enteredBy'), t(lang, 'value.enteredBy', { name: x.enteredBy.name, file: x.enteredBy.file }))]
      : []),
    // The bench's own result is printed where it differs from a pass: the judgement column says the rest.
    ...(x.result === 'pass' ? [] : [t(lang, 'value.benchResult', { result: t(lang, `result.${x.result}`) })]),
    x.instrument ? instrumentText(lang, x.instrument) : labelled(lang, t(lang, 'field.instrument'), none),
    ...conditionsRows(lang, x).map(([, v]) => v),
    ...(x.earlierTests > 0 ? [labelled(lang, t(lang, 'field.retests'), formatNumber(lang, x.earlierTests, 0))] : []),
  ].join(' · ');
}

export function testBlock(
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

/** The tests are laid out compactly when none has samples to chart: their blocks would be tables alone. */
export function compactTests(m: ReportModel): boolean {
  return m.tests.length > 0 && m.tests.every((x) => x.samples.length === 0);
}

/**
 * Under a compact summary, per test, what the required pressure came from and what was not met; tests whose
 * notes read alike share one line.
 */
export function testNotes(m: ReportModel, para: (text: string) => void): void {
  const lang = m.language;
  if (m.tests.some((x) => x.earlierTests > 0)) para(t(lang, 'value.retestsNote'));
  // The summary marks an unconfirmed minimum hold with an asterisk (requiredHold).
  if (m.tests.some((x) => x.requirement?.holdUnconfirmed && x.requirement.holdMin > 0)) para(t(lang, 'value.unconfirmedNote'));
  // Tests whose notes read alike (the same required-pressure basis) share one line.
  const byNote = new Map<string, string[]>();
  for (const x of m.tests) {
    const basis = x.requirement?.pressureBasis ? pressureBasisText(lang, x.requirement) : null;
    const reasons = x.reasons.map((code) => t(lang, `reason.${code}`)).join(semicolon(lang));
    const notes = [
      ...(basis ? [labelled(lang, t(lang, 'field.pressureBasis'), basis)] : []),
      ...(reasons ? [labelled(lang, t(lang, 'field.reasons'), reasons)] : []),
    ].join(semicolon(lang));
    if (notes) byNote.set(notes, [...(byNote.get(notes) ?? []), t(lang, `test.${x.testType}`)]);
  }
  for (const [notes, tests] of byNote) para(`${enumerate(lang, tests)} — ${notes}`);
}
