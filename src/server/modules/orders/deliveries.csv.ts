/**
 * A delivery's units from a CSV file (columns serial, line, tag). Rows the file itself spoils (a broken
 * quote, a missing column, a bad line number) refuse the file at once with their rows; the rest goes to the
 * same all-or-nothing check as the JSON batch, whose answer names the file's rows.
 */
import { DELIVERY_UNITS_MAX, deliveryUnitInput, type DeliveryUnitInput } from '../../../shared/contract/orders';
import { DELIVERY_UNIT_CSV_COLUMNS } from '../../../shared/contract/orders-csv';
import { AppError } from '../../../shared/errors';
import { readCsvRows } from '../../lib/csv-rows';

export async function readDeliveryUnitsCsv(source: AsyncIterable<Uint8Array>): Promise<{ units: DeliveryUnitInput[]; rowOf: number[] }> {
  const read = await readCsvRows(source, {
    keys: 'orders.import',
    columns: DELIVERY_UNIT_CSV_COLUMNS,
    required: ['serial', 'line'],
    maxRows: DELIVERY_UNITS_MAX,
  });
  const fields = read.failures.map((f) => ({
    field: f.field ? `rows.${f.row}.${f.field}` : `rows.${f.row}`,
    key: f.key,
    params: f.params,
  }));
  const units: DeliveryUnitInput[] = [];
  const rowOf: number[] = [];
  for (const { row, input } of read.rows) {
    const parsed = deliveryUnitInput.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      fields.push({ field: `rows.${row}.${String(issue.path[0] ?? 'serial')}`, key: issue.message, params: undefined });
      continue;
    }
    units.push(parsed.data);
    rowOf.push(row);
  }
  if (fields.length) throw new AppError('invalid-argument', 'orders.validation.unitsRefused', { params: { count: fields.length }, fields });
  return { units, rowOf };
}
