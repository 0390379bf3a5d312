/**
 * CSV import of customers: name, code, address, country, language, emailDomains separated by spaces, and
 * contacts as formatContacts writes them (`Name <email> (language, certificates)`, separated by `;`). Every row is checked with the form's schema and against the codes taken; one bad row
 * and nothing is stored (the answer names every bad row). A preview (dryRun) checks without storing.
 */
import { customerInput, type CustomerValues } from '../../../shared/contract/orders';
import { CUSTOMER_CSV_COLUMNS, parseContacts } from '../../../shared/contract/orders-csv';
import type { ImportResult } from '../../../shared/contract/record-history';
import { translate, type Language } from '../../../shared/i18n/index';
import type { Db } from '../../db/client';
import { PG, pgErrorCode } from '../../db/errors';
import { recordAudit, type AuditActor } from '../audit/audit.writer';
import { readCsvRows, type CsvRowFailure } from '../../lib/csv-rows';
import * as repo from './customers.repo';
import { CUSTOMER_ENTITY } from './customers.service';

export const MAX_CUSTOMER_ROWS = 10_000;
const MAX_ERRORS = 200;

export async function importCustomers(
  db: Db,
  source: AsyncIterable<Uint8Array>,
  actor: AuditActor,
  opts: { dryRun: boolean; language: Language },
): Promise<ImportResult> {
  const read = await readCsvRows(source, {
    keys: 'orders.import',
    columns: CUSTOMER_CSV_COLUMNS,
    required: ['name', 'code'],
    maxRows: MAX_CUSTOMER_ROWS,
  });
  const failures: CsvRowFailure[] = [...read.failures];
  const valid: { row: number; value: CustomerValues }[] = [];
  const codes = new Map<string, number>();
  for (const { row, input } of read.rows) {
    // An empty cell takes the form's default (language English, no country).
    const given = Object.fromEntries(Object.entries(input).filter(([, v]) => v.trim() !== ''));
    const contacts = parseContacts(input.contacts ?? '');
    if (!contacts) {
      failures.push({ row, field: 'contacts', key: 'orders.import.contacts' });
      continue;
    }
    const parsed = customerInput.safeParse({ ...given, emailDomains: (input.emailDomains ?? '').split(/\s+/).filter(Boolean), contacts });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      failures.push({ row, field: String(issue.path[0] ?? ''), key: issue.message });
      continue;
    }
    const emails = parsed.data.contacts.map((c) => c.email.toLowerCase());
    if (new Set(emails).size !== emails.length) {
      failures.push({ row, field: 'contacts', key: 'orders.validation.contactTwice' });
      continue;
    }
    if (codes.has(parsed.data.code)) {
      failures.push({ row, field: 'code', key: 'orders.import.codeTwice' });
      continue;
    }
    codes.set(parsed.data.code, row);
    valid.push({ row, value: parsed.data });
  }
  const taken = await repo.takenCodes(db, [...codes.keys()]);
  for (const code of taken) failures.push({ row: codes.get(code)!, field: 'code', key: 'orders.codeTaken' });

  let stored = 0;
  if (failures.length === 0 && !opts.dryRun) {
    try {
      stored = await db.transaction(async (tx) => {
        const ids = await repo.insertCustomers(
          tx,
          valid.map((v) => v.value),
        );
        for (const [i, id] of ids.entries()) {
          await recordAudit(tx, actor, { action: 'import', entity: CUSTOMER_ENTITY, entityId: id, after: { id, ...valid[i]!.value } });
        }
        return ids.length;
      });
    } catch (err) {
      // A code taken by another request since the check above.
      if (pgErrorCode(err) !== PG.uniqueViolation) throw err;
      failures.push({ row: 1, field: 'code', key: 'orders.codeTaken' });
    }
  }
  failures.sort((a, b) => a.row - b.row);
  return {
    dryRun: opts.dryRun,
    rows: read.rows.length + read.failures.filter((f) => f.row > 1).length,
    stored,
    valid: failures.length === 0,
    errors: failures.slice(0, MAX_ERRORS).map((f) => ({ ...f, message: translate(opts.language, f.key, f.params) })),
    errorsTruncated: failures.length > MAX_ERRORS,
  };
}
