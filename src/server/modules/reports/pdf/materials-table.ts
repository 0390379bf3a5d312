/**
 * The certificate's materials table: each part the unit traces, its material, the heat it was made from and
 * that heat's mill certificate (number and EN 10204 type), as a buyer's inspector matches them against the
 * stamping on the parts.
 */
import { translate } from '../../../../shared/i18n/index';
import type { ReportMaterial, ReportModel } from '../report-model';
import { inLanguage, t } from '../format';
import { drawTable, ensureSpace, W, type Cell } from './report-layout';

type Doc = PDFKit.PDFDocument;
type Struct = PDFKit.PDFStructureElement;

function millCertificate(lang: ReportModel['language'], x: ReportMaterial): string {
  if (!x.heat) return t(lang, 'materials.none');
  const number = x.heat.certificateNumber || t(lang, 'materials.none');
  return `${number} (EN 10204 ${x.heat.certificateType})`;
}

export function materialsTable(doc: Doc, root: Struct, m: ReportModel): void {
  const lang = m.language;
  const head: Cell[] = ['part', 'material', 'heat', 'millCertificate'].map((k) => ({
    text: t(lang, `materials.${k}`),
    header: 'Column' as const,
  }));
  const rows: Cell[][] = m.materials.map((x) => [
    { text: inLanguage(lang, (l) => translate(l, `materials.parts.${x.part}`)), header: 'Row' as const },
    { text: x.material ?? x.heat?.material ?? t(lang, 'materials.none') },
    { text: x.heat?.number ?? t(lang, 'materials.none'), bold: !!x.heat },
    { text: millCertificate(lang, x) },
  ]);
  ensureSpace(doc, (rows.length + 1) * 16 + 24);
  drawTable(doc, root, [head, ...rows], [90, 150, 110, W - 90 - 150 - 110], { size: 8, pad: 2.5 });
}
