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
import { productGtin } from '../products/products.service';
import { getRange } from './serials.service';

export async function planLabels(
  db: Executor,
  id: string,
  q: LabelQuery,
  options: { publicBaseUrl: string; language: Language; testMark?: boolean },
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
    gtin: await productGtin(db, range.productId),
    testMark: options.testMark ? translate(options.language, 'labels.testMark') : '',
    title: translate(options.language, 'labels.pdfTitle', { range: rangeLabel(first, last) }),
    filename: `labels-${first}-${last}.pdf`.replace(/[^A-Za-z0-9._-]/g, '_'),
  };
}

/**
 * How long a labels PDF's response may take, drawing and sending: a base for any file and a share per
 * label, so that a large file on a slow link is still sent while a client that stopped reading frees its
 * drawing slot (docs/decisions/0041-labels-deadline.md, figures there).
 */
export function labelsDeadlineMs(labels: number, deadline: { deadlineBaseMs: number; deadlinePerLabelMs: number }): number {
  return deadline.deadlineBaseMs + labels * deadline.deadlinePerLabelMs;
}
