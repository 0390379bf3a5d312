/**
 * Which labels a request asks for: the range (404 when unknown), the part of it (`from`/`to`, both inside
 * the range), at most MAX_LABELS_PER_FILE of them. Errors name the field, in the request's language.
 */
import { selectLabels, type LabelQuery } from '../../../shared/contract/labels';
import { AppError } from '../../../shared/errors';
import { translate, type Language } from '../../../shared/i18n/index';
import { rangeLabel } from '../../../shared/serial';
import type { Executor } from '../../db/client';
import type { LabelPlan } from './labels-pdf';
import { getRange } from './serials.service';

export async function planLabels(
  db: Executor,
  id: string,
  q: LabelQuery,
  options: { publicBaseUrl: string; language: Language },
): Promise<LabelPlan & { filename: string }> {
  const range = await getRange(db, id);
  const chosen = selectLabels(range, q.from, q.to);
  if (!chosen.ok) {
    const { field, key, params } = chosen;
    throw new AppError('invalid-argument', key, { params, fields: [{ field, key, params }] });
  }
  const first = q.from ?? range.startSerial;
  const last = q.to ?? range.endSerial;
  return {
    prefix: chosen.prefix,
    width: chosen.width,
    from: chosen.from,
    to: chosen.to,
    productName: range.productName,
    layout: q.layout,
    publicBaseUrl: options.publicBaseUrl,
    title: translate(options.language, 'labels.pdfTitle', { range: rangeLabel(first, last) }),
    filename: `labels-${first}-${last}.pdf`.replace(/[^A-Za-z0-9._-]/g, '_'),
  };
}
