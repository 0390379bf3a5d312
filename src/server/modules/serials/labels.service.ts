/**
 * Which labels a request asks for: the range (404 when unknown), the part of it (`from`/`to`, both inside
 * the range), at most MAX_LABELS_PER_FILE of them. Errors name the field, in the request's language.
 */
import { MAX_LABELS_PER_FILE, type LabelQuery } from '../../../shared/contract/labels';
import { AppError } from '../../../shared/errors';
import { translate, type Language } from '../../../shared/i18n/index';
import { parseSerial, rangeLabel } from '../../../shared/serial';
import type { Executor } from '../../db/client';
import type { LabelPlan } from './labels-pdf';
import { getRange } from './serials.service';

function fieldError(field: 'from' | 'to', key: string, params: Record<string, string | number>): AppError {
  return new AppError('invalid-argument', key, { params, fields: [{ field, key, params }] });
}

export async function planLabels(
  db: Executor,
  id: string,
  q: LabelQuery,
  options: { publicBaseUrl: string; language: Language },
): Promise<LabelPlan & { filename: string }> {
  const range = await getRange(db, id);
  const start = parseSerial(range.startSerial)!;
  const end = parseSerial(range.endSerial)!;
  const label = rangeLabel(range.startSerial, range.endSerial);
  const inside = (field: 'from' | 'to', serial: string | undefined, fallback: bigint): bigint => {
    if (serial === undefined) return fallback;
    const p = parseSerial(serial);
    if (!p || p.prefix !== start.prefix || p.width !== start.width || p.number < start.number || p.number > end.number) {
      throw fieldError(field, 'labels.outsideRange', { range: label });
    }
    return p.number;
  };
  const from = inside('from', q.from, start.number);
  const to = inside('to', q.to, end.number);
  if (to < from) throw fieldError('to', 'labels.toBeforeFrom', {});
  if (to - from + 1n > BigInt(MAX_LABELS_PER_FILE)) throw fieldError('to', 'labels.tooMany', { max: MAX_LABELS_PER_FILE });
  const first = q.from ?? range.startSerial;
  const last = q.to ?? range.endSerial;
  return {
    prefix: start.prefix,
    width: start.width,
    from,
    to,
    productName: range.productName,
    layout: q.layout,
    publicBaseUrl: options.publicBaseUrl,
    title: translate(options.language, 'labels.pdfTitle', { range: rangeLabel(first, last) }),
    filename: `labels-${first}-${last}.pdf`.replace(/[^A-Za-z0-9._-]/g, '_'),
  };
}
