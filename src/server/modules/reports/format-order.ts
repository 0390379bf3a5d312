/** The order block of a delivery's certificate as label–value rows, one place for the PDF and the HTML peer. */
import type { ReportLanguage } from '../../../shared/contract/reports';
import { formatDay, t } from './format';
import { comma } from '../../../shared/i18n/punctuation';
import type { ReportOrder } from './report-model';

const joined = (parts: string[]) => parts.filter((p) => p.trim() !== '').join(' · ');

export function orderRows(lang: ReportLanguage, o: ReportOrder): Array<[string, string]> {
  const address = o.purchaser.address
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .join(comma(lang));
  return [
    [t(lang, 'field.purchaser'), joined([o.purchaser.name, address, o.purchaser.country])],
    [t(lang, 'field.purchaseOrder'), joined([o.purchaseOrder.number, formatDay(lang, o.purchaseOrder.date)])],
    [t(lang, 'field.orderItem'), joined([t(lang, 'value.itemLine', { line: o.item.line }), o.item.buyerItemCode, o.item.description])],
    [t(lang, 'field.tag'), o.tag || t(lang, 'value.none')],
    [t(lang, 'field.delivery'), joined([o.delivery.number, formatDay(lang, o.delivery.date)])],
  ];
}
