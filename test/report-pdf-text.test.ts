/**
 * The report PDF's text, colours and QR code written without pdfkit's and qrcode's per-call work
 * (src/server/lib/pdf-kit/pdf-text.ts, pdf-qr.ts; docs/decisions/0032-report-pdf-speed.md), compared
 * with what pdfkit and qrcode write themselves, and the per-process caches behind them: a report rendered
 * after others is byte for byte the one rendered first, in en and zh.
 */
import { randomBytes } from 'node:crypto';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { BOLD, isSharedSubset, REGULAR, reportFonts, shareWidths } from '../src/server/lib/pdf-kit/fonts';
import { collectPdf, compressStreamsFast } from '../src/server/lib/pdf-kit/pdf-streams';
import { fillColor, pdfNumber, strokeColor, textHeight, wrapText, writeText } from '../src/server/lib/pdf-kit/pdf-text';
import { bestMaskCode } from '../src/server/lib/pdf-kit/pdf-qr';
import { renderReportPdf } from '../src/server/modules/reports/pdf/render-pdf';
import { curvePath } from '../src/server/modules/reports/pdf/pdf-chart';
import { formatDate, formatDateTime, formatNumber } from '../src/server/modules/reports/format';
import { formatNumber as sharedNumber } from '../src/shared/format/dates';
import type { ReportModel } from '../src/server/modules/reports/report-model';
import { benchModel } from '../bench/lib/report-fixture';

const FIXED = new Date('2026-03-05T10:00:00Z');

type Doc = PDFKit.PDFDocument;

/** A document set up as the report's: both faces registered, widths shared, streams collected as text. */
function reportLikeDoc(): { doc: Doc; done: Promise<Buffer> } {
  const fonts = reportFonts();
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: 40, left: 42, right: 42, bottom: 58 },
    font: '',
    autoFirstPage: false,
    info: { CreationDate: FIXED, ModDate: FIXED },
  });
  const done = collectPdf(doc);
  compressStreamsFast(doc, isSharedSubset);
  doc.registerFont(REGULAR, fonts.regular, REGULAR);
  doc.registerFont(BOLD, fonts.bold, BOLD);
  for (const face of [REGULAR, BOLD]) shareWidths((doc.font(face) as unknown as { _font: unknown })._font);
  doc.font(REGULAR);
  doc.addPage();
  return { doc, done };
}

interface Piece {
  face: string;
  size: number;
  color: string;
  text: string;
  /** undefined: one line (`lineBreak: false`) */
  width?: number;
  x: number;
  /** undefined: where the previous text left doc.y */
  y?: number;
}

const EN =
  'We hereby certify that the product described above has been tested as stated and complies with the order. ' +
  'Test pressure 2.4 MPa (required ≥ 2.4 MPa), hold 60 s.';
const ZH = '茲證明上述產品已依所述方式完成測試，測試結果符合訂單要求。試驗壓力 2.4 MPa（要求 ≥ 2.4 MPa），保壓 60 秒。';

const PIECES: Piece[] = [
  { face: BOLD, size: 18, color: '#1a1a1a', text: 'Test Report 試驗報告', width: 511.28, x: 42, y: 60 },
  { face: REGULAR, size: 9, color: '#555555', text: EN, width: 511.28, x: 42 },
  { face: REGULAR, size: 9.5, color: '#1a1a1a', text: EN, width: 150, x: 42 },
  { face: REGULAR, size: 9, color: '#1a1a1a', text: ZH, width: 120, x: 60 },
  { face: BOLD, size: 8, color: '#1b5e20', text: 'Conforms', width: 102, x: 300, y: 400 },
  { face: REGULAR, size: 7, color: '#333333', text: '2.4', x: 100.123456789, y: 500.5 },
  { face: REGULAR, size: 7.5, color: '#555555', text: 'Page 1 of 3 第 1 頁，共 3 頁', x: 480, y: 799.89 },
  // A word longer than the width (pdfkit splits it), trailing and leading spaces, a text that starts with a space.
  {
    face: REGULAR,
    size: 8.5,
    color: '#1a1a1a',
    text: 'https://reports.example.com/search?report=AAAAAAAAAAAAAAAAAAAAAA',
    width: 90,
    x: 42,
    y: 520,
  },
  { face: REGULAR, size: 8.5, color: '#1a1a1a', text: '  two  spaces  ', width: 200, x: 42 },
  // Left to pdfkit: empty, a line feed, a tab, an unusual colour, text reaching the bottom margin (a new page).
  { face: REGULAR, size: 9, color: '#1a1a1a', text: '', width: 200, x: 42 },
  { face: REGULAR, size: 9, color: 'red', text: 'line one\nline two', width: 200, x: 42 },
  { face: REGULAR, size: 9, color: '#abc', text: 'a\tb', x: 42, y: 600 },
  { face: BOLD, size: 9, color: '#b71c1c', text: `${EN} ${ZH} ${EN}`, width: 300, x: 42, y: 740 },
  { face: REGULAR, size: 9, color: '#1a1a1a', text: 'after the break', width: 300, x: 42 },
];

/** Writes the pieces with pdfkit's calls or with pdf-text.ts; returns the file and doc.x / doc.y after each. */
async function write(fast: boolean): Promise<{ pdf: Buffer; positions: number[][]; textCalls: number }> {
  const { doc, done } = reportLikeDoc();
  let textCalls = 0;
  const text = doc.text.bind(doc);
  doc.text = ((...args: Parameters<typeof text>) => {
    textCalls++;
    return text(...args);
  }) as typeof doc.text;
  let pages = 1;
  doc.on('pageAdded', () => pages++);
  const positions: number[][] = [];
  for (const p of PIECES) {
    const y = p.y ?? doc.y;
    doc.font(p.face).fontSize(p.size);
    if (fast) {
      fillColor(doc, p.color);
      strokeColor(doc.lineWidth(0.5), '#b0b7c3');
      writeText(doc, p.text, p.x, y, p.width);
    } else {
      doc.fillColor(p.color);
      doc.lineWidth(0.5).strokeColor('#b0b7c3');
      doc.text(p.text, p.x, y, p.width === undefined ? { lineBreak: false } : { width: p.width });
    }
    doc.rect(p.x, y, 10, 10).stroke();
    positions.push([doc.x, doc.y, pages]);
  }
  doc.end();
  return { pdf: await done, positions, textCalls };
}

describe('text as pdfkit writes it', () => {
  it('writes the same file as doc.text, fillColor and strokeColor, first and from the kept layouts', async () => {
    for (const round of [1, 2]) {
      const plain = await write(false);
      const fast = await write(true);
      expect([round, fast.positions]).toEqual([round, plain.positions]);
      expect(fast.pdf.equals(plain.pdf)).toBe(true);
    }
    // The text near the bottom margin went on to a new page in both; pdfkit wrote only the four texts left to it.
    const fast = await write(true);
    expect(fast.positions.at(-1)![2]).toBe(2);
    expect(fast.textCalls).toBe(4);
  });

  it('measures as heightOfString to the last bit wherever the text is, with the lines it wraps into', () => {
    const { doc } = reportLikeDoc();
    for (const y of [40, 123.456, 700.1])
      for (const [face, size, text, width] of [
        [REGULAR, 9, EN, 150],
        [BOLD, 8.5, 'Holding time', 124],
        [REGULAR, 9, ZH, 120],
        [REGULAR, 9, 'one line', 120],
      ] as const) {
        doc.font(face).fontSize(size);
        doc.y = y;
        expect(textHeight(doc, text, width)).toBe(doc.heightOfString(text, { width }));
        const { lines } = wrapText(doc, text, width);
        expect(lines.join('')).toBe(text);
        expect(lines.length).toBe(Math.round(doc.heightOfString(text, { width }) / doc.currentLineHeight(true)));
        expect(doc.y).toBe(y);
      }
    doc.end();
  });
});

/** A document of objects made of every kind of value, written by pdfkit alone or with pdf-streams.ts. */
async function dictionaries(fast: boolean): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', font: '', autoFirstPage: false, info: { CreationDate: FIXED, ModDate: FIXED } });
  const chunks: Buffer[] = [];
  const done = fast
    ? collectPdf(doc)
    : new Promise<Buffer>((resolve) => {
        doc.on('data', (c: Buffer) => chunks.push(c));
        doc.on('end', () => resolve(Buffer.concat(chunks)));
      });
  if (fast) compressStreamsFast(doc, isSharedSubset);
  doc.addPage();
  const a = doc.ref({ Type: 'Test', N: 1 });
  a.end('');
  const values = [
    { S: 'TD', P: a, K: [0, 1, a, [2, 3]], A: { O: 'Table', Scope: 'Row' }, Skip: undefined },
    { Numbers: [0, -0, 1.5, -2.25, 1 / 3, 1e-7, 123456789.1234567, 595.28], Flags: [true, false, null], Hole: [1, undefined, 2] },
    { Empty: {}, EmptyArray: [], Nested: { Deeper: { Deepest: [{ X: 1 }] } }, Proto: Object.assign(Object.create(null), { Y: 2 }) },
    // Left to pdfkit: text strings, dates, bytes.
    { Alt: new String('Ä (x) \\ 試'), M: FIXED, Bytes: Buffer.from([0, 255, 16]) },
  ];
  for (const v of values) doc.ref(v).end('');
  const s = doc.ref({ Type: 'WithStream' });
  s.write('1 0 0 1 0 0 cm');
  s.end('q Q');
  doc.ref({ Type: 'Empty' }).end('');
  doc.end();
  return done;
}

describe('objects as pdfkit writes them', () => {
  it('writes every dictionary as pdfkit does, outside the streams the same file', async () => {
    const outside = (pdf: Buffer) => pdf.toString('latin1').replace(/stream\n[\s\S]*?\nendstream/g, 'stream');
    const fast = await dictionaries(true);
    const plain = await dictionaries(false);
    expect(outside(fast).replace(/\/Length \d+/g, '')).toBe(outside(plain).replace(/\/Length \d+/g, ''));
  });
});

describe('numbers in content', () => {
  it('writes each as pdfkit writes PDFObject.number', () => {
    const values = [
      0,
      -0,
      1,
      -1,
      0.5,
      1e-6,
      -1e-6,
      4e-7,
      6e-7,
      1e-7,
      841.89,
      595.28,
      0.1 + 0.2,
      1234567.8912345,
      -98765.4321,
      2 ** 40 + 0.25,
    ];
    for (let i = 0; i < 200_000; i++) values.push((Math.random() - 0.5) * 10 ** ((i % 14) - 6));
    expect(values.filter((v) => pdfNumber(v) !== `${Math.round(v * 1e6) / 1e6}`)).toEqual([]);
    expect(() => pdfNumber(Number.NaN)).toThrow();
  });
});

describe('the chart curve', () => {
  it('writes each point at a tenth of a point as JavaScript writes the rounded figure', () => {
    const old = (points: Array<[number, number]>) => {
      const parts: string[] = [];
      let px = NaN;
      let py = NaN;
      for (const [x0, y0] of points) {
        const x = Math.round(x0 * 10) / 10;
        const y = Math.round(y0 * 10) / 10;
        if (x === px && y === py) continue;
        parts.push(`${x} ${y} ${parts.length === 0 ? 'm' : 'l'}`);
        px = x;
        py = y;
      }
      if (parts.length === 1) parts.push(`${px} ${py} l`);
      return parts.join('\n');
    };
    const points: Array<[number, number]> = [];
    for (let i = 0; i < 5000; i++) points.push([(Math.random() - 0.3) * 10 ** ((i % 5) - 1), (Math.random() - 0.5) * 900]);
    points.push(
      [0, -0],
      [-0.04, 0.04],
      [-0.05, 0.05],
      [-0.06, 0.06],
      [99.95, 100.05],
      [1e6 + 0.35, -1e6 - 0.35],
      [Number.NaN, 1],
      [1e20, -1e17],
    );
    expect(curvePath(points)).toBe(old(points));
    expect(curvePath([[-0.04, 3]])).toBe(old([[-0.04, 3]]));
  });
});

describe('the QR code', () => {
  it('has the modules and mask qrcode chooses itself', () => {
    const masks = new Set<number>();
    for (let i = 0; i < 600; i++) {
      const text =
        i % 3 === 0
          ? `https://reports.example.com/search?report=${randomBytes(16).toString('base64url')}`
          : i % 3 === 1
            ? `https://t${'x'.repeat(i % 70)}.example/r?report=${randomBytes(16).toString('base64url')}`
            : randomBytes(1 + (i % 150)).toString('base64');
      const own = QRCode.create(text, { errorCorrectionLevel: 'M' });
      const fast = bestMaskCode(text);
      masks.add(fast.maskPattern);
      expect(fast.maskPattern).toBe(own.maskPattern);
      expect(Buffer.from(fast.modules.data).equals(Buffer.from(own.modules.data))).toBe(true);
    }
    expect([...masks].sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });
});

describe('formatting kept by value', () => {
  it('gives the same texts, -0 and invalid dates included', () => {
    for (const v of [0, -0, 1.5, 2.94, -10, 1234.5678, Number.NaN])
      for (const lang of ['en', 'zh'] as const) {
        expect(formatNumber(lang, v)).toBe(sharedNumber(lang, v, 3));
        expect(formatNumber(lang, v, 1)).toBe(sharedNumber(lang, v, 1));
        expect(formatNumber(lang, v, 1)).toBe(sharedNumber(lang, v, 1));
      }
    expect(formatDate('en', FIXED)).toBe(formatDate('en', new Date(FIXED.getTime())));
    expect(formatDateTime('zh', FIXED)).not.toBe(formatDateTime('en', FIXED));
    expect(formatDate('en', new Date(Number.NaN))).toBe(formatDate('en', new Date(Number.NaN)));
  });
});

/** Reports unlike the bench's in what they print: other texts, lengths, verdicts and glyphs. */
function otherReports(): ReportModel[] {
  const out: ReportModel[] = [];
  for (const lang of ['en', 'zh'] as const) {
    const a = benchModel(lang);
    a.serial = 'GV-99-000777';
    a.number = 'TR-2026-009999';
    a.product = { ...a.product, name: 'Globe Valve DN80 PN40 截止閥 — Stainless, extended bonnet for cryogenic service', nominalSize: 80 };
    a.company = { ...a.company, name: 'Zeta Flow Control GmbH 澤塔流體控制', address: 'Industriestraße 12, 70565 Stuttgart, Germany' };
    a.statement = `${a.statement} ${a.statement} Ünïcödé ÄÖÜ ß ¿¡ 測試壽命`;
    a.inspectorName = 'María-José Ångström';
    a.tests = [{ ...a.tests[1]!, result: 'fail', verdict: 'nonconforming', reasons: ['pressure-low', 'hold-short'] }, a.tests[0]!];
    out.push(a);
    const b = benchModel(lang);
    b.standard = null;
    b.tests = [{ ...b.tests[0]!, requirement: null, verdict: 'not-assessed', samples: [] }];
    b.documentType = 'inspection-certificate-3.1';
    b.inspectorName = 'Lin Mei-Ling 林美玲';
    out.push(b);
  }
  return out;
}

describe('caches shared by the reports of a process', () => {
  it('renders a report after others byte for byte as the first time, in en and zh', async () => {
    const en = benchModel('en');
    const zh = benchModel('zh');
    const firstEn = await renderReportPdf(en);
    const firstZh = await renderReportPdf(zh);
    for (const other of otherReports()) await renderReportPdf(other);
    expect((await renderReportPdf(benchModel('zh'))).equals(firstZh)).toBe(true);
    expect((await renderReportPdf(benchModel('en'))).equals(firstEn)).toBe(true);
    // And the others again, after the bench's.
    const others = await Promise.all(otherReports().map((m) => renderReportPdf(m)));
    const again = await Promise.all(otherReports().map((m) => renderReportPdf(m)));
    again.forEach((pdf, i) => expect(pdf.equals(others[i]!)).toBe(true));
  }, 60_000);
});
