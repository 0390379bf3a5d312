/**
 * The sizes and spacing of a certificate, chosen once per document: the full look, and the compact one for a
 * unit whose tests carry no charts (docs/decisions/0057-compact-certificate.md): denser tables of two pairs a
 * row, smaller headings and less space between them, each test's conditions on a line under its judgement.
 */
import { keyValueTable, pairsTable } from './report-layout';

type Doc = PDFKit.PDFDocument;
type Struct = PDFKit.PDFStructureElement;
type Rows = Array<[string, string]>;

/** A facts table's label column in each look. */
export interface LabelWidths {
  full: number;
  compact: number;
}

/** A paragraph's size and the space after it. */
interface TextLook {
  size: number;
  gap: number;
}

export interface CertificateLook {
  compact: boolean;
  /** points added to (or, negative, taken from) the font's own line height: the compact look's tighter leading */
  lineGap: number;
  /** space after a section */
  gap: number;
  title: number;
  h2: number;
  /** room a heading keeps under it on its page */
  headingRoom: number;
  /** the least height of the header when there is no logo */
  headerHeight: (hasLogo: boolean) => number;
  afterRule: number;
  documentTypeGap: number;
  qrSize: number;
  /** space between the facts and the QR code beside them */
  qrGap: number;
  afterJudgedTo: number;
  afterTests: number;
  statement: TextLook;
  strongLine: TextLook;
  mutedLine: TextLook;
  beforeVerify: number;
  /** the verification as one paragraph (compact) or as two */
  verifyOnOneLine: boolean;
  /** a table of facts, one pair a row (full) or two (compact), its label column as wide as this look's of `labelWidths` */
  facts(doc: Doc, root: Struct, rows: Rows, width: number, labelWidths: LabelWidths): void;
}

const FULL: CertificateLook = {
  compact: false,
  lineGap: 0,
  gap: 12,
  title: 18,
  h2: 12,
  headingRoom: 40,
  headerHeight: () => 48,
  afterRule: 12,
  documentTypeGap: 8,
  qrSize: 92,
  qrGap: 16,
  afterJudgedTo: 10,
  afterTests: 0,
  statement: { size: 9.5, gap: 6 },
  strongLine: { size: 9.5, gap: 6 },
  mutedLine: { size: 8.5, gap: 6 },
  beforeVerify: 0,
  verifyOnOneLine: false,
  facts: (doc, root, rows, width, labelWidths) => keyValueTable(doc, root, rows, { width, labelWidth: labelWidths.full }),
};

const COMPACT: CertificateLook = {
  compact: true,
  // Noto Sans TC's line is 1.45 em; 1.2 em at 8 pt (a table's leading) still clears its CJK glyphs.
  lineGap: -2,
  gap: 5,
  title: 15,
  h2: 10.5,
  headingRoom: 24,
  headerHeight: (hasLogo) => (hasLogo ? 48 : 0),
  afterRule: 8,
  documentTypeGap: 5,
  qrSize: 72,
  qrGap: 12,
  afterJudgedTo: 2,
  afterTests: 5,
  statement: { size: 9, gap: 4 },
  strongLine: { size: 9, gap: 4 },
  mutedLine: { size: 8, gap: 3 },
  beforeVerify: 2,
  verifyOnOneLine: true,
  facts: (doc, root, rows, width, labelWidths) => pairsTable(doc, root, rows, { width, labelWidth: labelWidths.compact, size: 8, pad: 2 }),
};

export const certificateLook = (compact: boolean): CertificateLook => (compact ? COMPACT : FULL);
