/**
 * What a delivery link shows and downloads: the delivery's index (publicDeliveryIndex, also `index.json`
 * in the ZIP; docs/schemas/delivery-index.schema.json), the same as `index.csv`, and the ZIP's entries:
 * each unit's newest signed PDF, then each heat's mill certificate once, read from the database one at a
 * time as the archive is written.
 */
import type { PublicDeliveryIndex } from '../../../shared/contract/delivery-links';
import type { Executor } from '../../db/client';
import { csvLine, UTF8_BOM } from '../../lib/csv';
import { deliveryZipPdfs } from '../../lib/metrics';
import type { ZipEntry } from '../../lib/zip-stream';
import { parseSerial } from '../../../shared/serial';
import { materialName } from '../../../shared/contract/materials';
import { certificateOf } from '../materials/heats.service';
import { certificateBytes, deliveryHeats, indexUnits, type IndexUnitRow, type LinkedDelivery } from './delivery-links.repo';

/**
 * A certificate is issued only for a unit the release gate passes (src/server/modules/reports/issue.ts), so
 * every certificate of the index states a pass.
 */
const VERDICT = 'pass';

export interface DeliveryIndexWithSizes {
  index: PublicDeliveryIndex;
  /** each unit's newest PDF: its id and size, in the index's order */
  pdfs: { reportId: string; size: number }[];
  /** each mill certificate's heat id, in the index's order */
  heats: string[];
}

export async function deliveryIndex(db: Executor, d: LinkedDelivery): Promise<DeliveryIndexWithSizes> {
  const rows: IndexUnitRow[] = await indexUnits(db, d.id);
  const parsed = rows.map((r) => parseSerial(r.serial)).filter((p) => p !== null);
  const heats = await deliveryHeats(
    db,
    parsed.map((p) => ({ prefix: p.prefix, width: p.width, serialNo: p.number })),
  );
  const heatNames = millCertificateNames(heats.map((h) => h.number));
  const index: PublicDeliveryIndex = {
    schema: 'test-report-center/delivery-index',
    schemaVersion: 2,
    customer: { name: d.customer.name, code: d.customer.code },
    purchaseOrder: d.purchaseOrder,
    delivery: { number: d.number, date: d.date, releasedAt: d.releasedAt },
    units: rows.map((r) => ({
      serial: r.serial,
      tag: r.tag,
      line: r.line,
      buyerItemCode: r.buyerItemCode,
      product: r.product,
      productZh: r.productZh,
      verdict: VERDICT,
      reportNumber: r.reportNumber,
      reportId: r.reportId,
      sha256: r.sha256,
      issuedAt: r.issuedAt,
      superseded: r.superseded,
    })),
    millCertificates: heats.map((h, i) => ({
      heat: h.number,
      material: materialName(h),
      certificateNumber: h.certificateNumber,
      certificateType: h.certificateType,
      file: heatNames[i]!,
      sha256: h.sha256,
      bytes: h.bytes,
    })),
  };
  return { index, pdfs: rows.map((r) => ({ reportId: r.reportId, size: r.size })), heats: heats.map((h) => h.id) };
}

/** Each mill certificate's path in the ZIP: `mill-certificates/<heat>.pdf`, made safe and unique (ignoring case). */
export function millCertificateNames(heats: string[]): string[] {
  const taken = new Set<string>();
  return heats.map((heat) => {
    const base = `mill-certificates/${safeName(heat)}`;
    let name = `${base}.pdf`;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base}-${n}.pdf`;
    taken.add(name.toLowerCase());
    return name;
  });
}

export const INDEX_CSV_HEADER = ['serial', 'tag', 'line', 'buyerItemCode', 'product', 'verdict', 'reportNumber', 'sha256'] as const;

/** `index.csv`: UTF-8 with a BOM (Excel shows Chinese right), CRLF, formula-like cells neutralised (lib/csv.ts). */
export function indexCsv(index: PublicDeliveryIndex): string {
  return (
    UTF8_BOM +
    csvLine(INDEX_CSV_HEADER) +
    index.units.map((u) => csvLine([u.serial, u.tag, u.line, u.buyerItemCode, u.product, u.verdict, u.reportNumber, u.sha256])).join('')
  );
}

/** A file name from a tag or serial: no path separators, control or reserved characters, no leading dot. */
export function safeName(s: string): string {
  const cleaned = s
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, '_')
    .replace(/^[.\s]+/, '')
    .trim()
    .slice(0, 100);
  return cleaned || 'unit';
}

/** Each unit's PDF name: its tag, else its serial, made safe and unique within the archive (ignoring case). */
export function pdfNames(units: { serial: string; tag: string }[]): string[] {
  const taken = new Set<string>(['index.json', 'index.csv']);
  return units.map((u) => {
    const base = safeName(u.tag || u.serial);
    let name = `${base}.pdf`;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base}-${n}.pdf`;
    taken.add(name.toLowerCase());
    return name;
  });
}

/**
 * The archive's entries: `index.json`, `index.csv`, then each unit's newest PDF, its bytes read only when
 * the writer asks for the entry (src/server/lib/zip-stream.ts waits for the client before asking again).
 */
export async function* zipEntries(db: Executor, data: DeliveryIndexWithSizes): AsyncGenerator<ZipEntry> {
  const modified = data.index.delivery.releasedAt ? new Date(data.index.delivery.releasedAt) : new Date();
  yield { name: 'index.json', data: Buffer.from(JSON.stringify(data.index, null, 2), 'utf8'), modified };
  yield { name: 'index.csv', data: Buffer.from(indexCsv(data.index), 'utf8'), modified };
  const names = pdfNames(data.index.units);
  for (const [i, unit] of data.index.units.entries()) {
    const bytes = await certificateBytes(db, unit.reportId);
    if (!bytes) throw new Error(`The certificate ${unit.reportNumber} is no longer stored`);
    deliveryZipPdfs.inc();
    yield { name: names[i]!, data: bytes, modified: new Date(unit.issuedAt) };
  }
  // Each heat's mill certificate once, read whole one at a time (at most 20 MB).
  for (const [i, heat] of data.index.millCertificates.entries()) {
    const found = await certificateOf(db, data.heats[i]!);
    if (!found) throw new Error(`The mill certificate of heat ${heat.heat} is no longer stored`);
    const pieces: Buffer[] = [];
    for await (const piece of found.pieces()) pieces.push(piece);
    yield { name: heat.file, data: Buffer.concat(pieces), modified };
  }
}
