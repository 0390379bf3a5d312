/**
 * The SQL twin of naturalSortKey (src/shared/format/natural-sort.ts): lower-cased text with every run of
 * digits left-padded to NATURAL_DIGITS, compared byte-wise ("C") so PGlite and PostgreSQL order alike.
 * First every digit run gets NATURAL_DIGITS zeros in front, then each run keeps only its last NATURAL_DIGITS
 * digits (the greedy `\d*` leaves exactly that many to the group).
 */
import { sql, type SQL } from 'drizzle-orm';
import { NATURAL_DIGITS } from '../../shared/format/natural-sort';

const ZEROS = '0'.repeat(NATURAL_DIGITS);

export function naturalSortSql(column: unknown): SQL {
  return sql`regexp_replace(regexp_replace(lower(${column}::text), '([0-9]+)', ${sql.raw(`'${ZEROS}\\1'`)}, 'g'), ${sql.raw(
    `'[0-9]*([0-9]{${NATURAL_DIGITS}})'`,
  )}, '\\1', 'g') collate "C"`;
}
