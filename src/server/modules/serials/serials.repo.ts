/**
 * SQL of serial-number ranges. Numbers travel as bigint; a range's serial texts are derived from
 * (prefix, width, number) by src/shared/serial.ts. Every sort key list ends in a unique key, so pages are
 * stable and the export can walk the list by keyset (`after`) instead of OFFSET.
 */
import { and, eq, gte, inArray, lte, ne, sql, type SQL } from 'drizzle-orm';
import { pageWindow } from '../../../shared/contract/common';
import type { SerialRange, SerialRangeListQuery, SerialRangeSort } from '../../../shared/contract/serials';
import { formatSerial, normaliseSerial, parseSerial, type ParsedSerial } from '../../../shared/serial';
import type { BodyMaterial } from '../../../shared/standards/requirement';
import { rowsOf, type Executor } from '../../db/client';
import { products, serialRanges, type ProductRow } from '../../db/schema/index';
import { isUuid, likePattern, MAX_OFFSET, withoutNul } from '../../db/errors';
import { naturalSortSql } from '../../db/natural-sort';

const r = serialRanges;

const fields = {
  id: r.id,
  productId: r.productId,
  productName: products.name,
  prefix: r.prefix,
  width: r.width,
  startNo: r.startNo,
  endNo: r.endNo,
  productionDate: r.productionDate,
  bodyMaterial: r.bodyMaterial,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
};

export interface RangeRow {
  id: string;
  productId: string;
  productName: string;
  prefix: string;
  width: number;
  startNo: bigint;
  endNo: bigint;
  productionDate: string;
  bodyMaterial: BodyMaterial | null;
  createdAt: Date;
  updatedAt: Date;
}

export function toRange(row: RangeRow): SerialRange {
  const startNo = BigInt(row.startNo);
  const endNo = BigInt(row.endNo);
  return {
    id: row.id,
    productId: row.productId,
    productName: row.productName,
    startSerial: formatSerial({ prefix: row.prefix, width: row.width, number: startNo }),
    endSerial: formatSerial({ prefix: row.prefix, width: row.width, number: endNo }),
    totalUnits: Number(endNo - startNo + 1n),
    productionDate: row.productionDate,
    bodyMaterial: row.bodyMaterial ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The id of the range holding `s`, as a scalar subquery: one descending step on (prefix, width, start_no). */
function holding(s: ParsedSerial): SQL {
  return sql`(select ${r.id} from ${r} where ${r.prefix} = ${s.prefix} and ${r.width} = ${s.width}
    and ${r.startNo} <= ${s.number.toString()}::bigint order by ${r.startNo} desc limit 1)`;
}

function containsCondition(s: ParsedSerial): SQL {
  return sql`${r.id} = ${holding(s)} and ${r.endNo} >= ${s.number.toString()}::bigint`;
}

type Filter = Pick<SerialRangeListQuery, 'q' | 'productId' | 'serial'>;

function whereOf(q: Filter): SQL | undefined {
  const parts: (SQL | undefined)[] = [];
  if (q.productId !== undefined) parts.push(isUuid(q.productId) ? eq(r.productId, q.productId) : sql`false`);
  if (q.serial !== undefined) {
    const s = parseSerial(q.serial);
    parts.push(s ? containsCondition(s) : sql`false`);
  }
  if (q.q) {
    // A serial finds the range holding it; any text also finds its products' ranges and a whole series
    // prefix. A union of three index lookups: an OR of them would make the planner scan every range.
    const s = parseSerial(q.q);
    // Each branch is its own uncorrelated subquery over serial_ranges (the inner FROM shadows the outer).
    const x = r;
    const branches: SQL[] = [
      sql`select ${x.id} from ${x} where ${x.productId} in (select ${products.id} from ${products} where ${products.name} ilike ${likePattern(q.q)})`,
      sql`select ${x.id} from ${x} where ${x.prefix} = ${withoutNul(normaliseSerial(q.q)).slice(0, 200)}`,
    ];
    if (s) {
      branches.push(sql`select ${x.id} from ${x} where ${x.id} = ${holding(s)} and ${x.endNo} >= ${s.number.toString()}::bigint`);
    }
    parts.push(sql`${r.id} in (${sql.join(branches, sql` union all `)})`);
  }
  return and(...parts);
}

interface SortKey {
  expr: SQL;
  /** the SQL type a cursor value is cast back to */
  type: string;
}
const key = (expr: unknown, type: string): SortKey => ({ expr: sql`${expr}`, type });
const SERIES = [key(r.prefix, 'text'), key(r.width, 'smallint')];
const SORT_KEYS: Record<SerialRangeSort, SortKey[]> = {
  productName: [key(naturalSortSql(products.name), 'text'), ...SERIES, key(r.startNo, 'bigint')],
  startSerial: [...SERIES, key(r.startNo, 'bigint')],
  endSerial: [...SERIES, key(r.endNo, 'bigint')],
  totalUnits: [key(r.totalUnits, 'bigint'), key(r.id, 'uuid')],
  productionDate: [key(r.productionDate, 'date'), key(r.id, 'uuid')],
  createdAt: [key(r.createdAt, 'timestamptz'), key(r.id, 'uuid')],
  updatedAt: [key(r.updatedAt, 'timestamptz'), key(r.id, 'uuid')],
};

function orderOf(q: Pick<SerialRangeListQuery, 'sort' | 'order'>): SQL[] {
  const dir = q.order === 'desc' ? sql`desc` : sql`asc`;
  return SORT_KEYS[q.sort ?? 'startSerial'].map((k) => sql`${k.expr} ${dir}`);
}

export async function listRanges(db: Executor, q: SerialRangeListQuery): Promise<{ items: SerialRange[]; total: number }> {
  const where = whereOf(q);
  const { limit, offset } = pageWindow(q);
  // Past any real table's end (and past what a bigint OFFSET parameter can carry): an empty page.
  if (offset > MAX_OFFSET) return { items: [], total: await countRanges(db, q) };
  const rows = db
    .select(fields)
    .from(r)
    .innerJoin(products, eq(products.id, r.productId))
    .where(where)
    .orderBy(...orderOf(q))
    .limit(limit)
    .offset(offset);
  const [items, total] = await Promise.all([rows, countRanges(db, q)]);
  return { items: items.map(toRange), total };
}

/**
 * Without a search, the total comes from the per-product counts the triggers keep (a sum over products
 * rather than a count over a million ranges); a search counts its matches, which an index narrows.
 */
async function countRanges(db: Executor, q: Filter): Promise<number> {
  if (!q.q && q.serial === undefined) {
    const where = q.productId === undefined ? undefined : isUuid(q.productId) ? eq(products.id, q.productId) : sql`false`;
    const [row] = await db
      .select({ n: sql<string>`coalesce(sum(${products.rangeCount}), 0)` })
      .from(products)
      .where(where);
    return Number(row?.n ?? 0);
  }
  const [row] = await db
    .select({ n: sql<string>`count(*)` })
    .from(r)
    .where(whereOf(q));
  return Number(row?.n ?? 0);
}

/** The filtered, sorted list in pages for the CSV export, walked by keyset so each page is an index step. */
export async function* rangePages(db: Executor, q: SerialRangeListQuery, size = 2000): AsyncGenerator<SerialRange[]> {
  const keys = SORT_KEYS[q.sort ?? 'startSerial'];
  const cursorFields = Object.fromEntries(keys.map((k, i) => [`k${i}`, sql<string>`${k.expr}::text`]));
  let after: string[] | null = null;
  for (;;) {
    const cursor: SQL | undefined = after
      ? sql`(${sql.join(
          keys.map((k) => k.expr),
          sql`, `,
        )}) ${q.order === 'desc' ? sql`<` : sql`>`} (${sql.join(
          keys.map((k, i) => sql`${after![i]}::${sql.raw(k.type)}`),
          sql`, `,
        )})`
      : undefined;
    const rows = await db
      .select({ ...fields, ...cursorFields })
      .from(r)
      .innerJoin(products, eq(products.id, r.productId))
      .where(and(whereOf(q), cursor))
      .orderBy(...orderOf(q))
      .limit(size);
    if (rows.length > 0) yield rows.map((row) => toRange(row as unknown as RangeRow));
    if (rows.length < size) return;
    const last = rows[rows.length - 1] as Record<string, unknown>;
    after = keys.map((_, i) => String(last[`k${i}`]));
  }
}

export async function findRange(db: Executor, id: string): Promise<RangeRow | undefined> {
  const [row] = await db.select(fields).from(r).innerJoin(products, eq(products.id, r.productId)).where(eq(r.id, id)).limit(1);
  return row;
}

function prepareHolding(db: Executor) {
  const n = sql`${sql.placeholder('n')}::bigint`;
  return db
    .select({ range: fields, product: products })
    .from(r)
    .innerJoin(products, eq(products.id, r.productId))
    .where(
      sql`${r.id} = (select ${r.id} from ${r} where ${r.prefix} = ${sql.placeholder('prefix')} and ${r.width} = ${sql.placeholder('width')}
        and ${r.startNo} <= ${n} order by ${r.startNo} desc limit 1) and ${r.endNo} >= ${n}`,
    )
    .limit(1)
    .prepare('trc_find_range_holding');
}
// Prepared once per database handle: planning this join (with the table's many indexes) costs several
// times more than running it, and the public lookup runs it on every request.
const preparedHolding = new WeakMap<Executor, ReturnType<typeof prepareHolding>>();

/** The range holding a serial and its product; two index steps (see holding()). */
export async function findRangeHolding(db: Executor, s: ParsedSerial): Promise<{ range: RangeRow; product: ProductRow } | null> {
  let q = preparedHolding.get(db);
  if (!q) {
    q = prepareHolding(db);
    preparedHolding.set(db, q);
  }
  const [row] = await q.execute({ prefix: s.prefix, width: s.width, n: s.number.toString() });
  return row ?? null;
}

/** A range of the series that intersects [start, end], other than `exceptId`: the one an overlap collided with. */
export async function findOverlapping(
  db: Executor,
  series: { prefix: string; width: number },
  start: bigint,
  end: bigint,
  exceptId?: string,
): Promise<RangeRow | undefined> {
  const [row] = await db
    .select(fields)
    .from(r)
    .innerJoin(products, eq(products.id, r.productId))
    .where(
      and(
        eq(r.prefix, series.prefix),
        eq(r.width, series.width),
        lte(r.startNo, end),
        gte(r.endNo, start),
        exceptId ? ne(r.id, exceptId) : undefined,
      ),
    )
    .orderBy(r.startNo)
    .limit(1);
  return row;
}

export interface RangeValues {
  productId: string;
  prefix: string;
  width: number;
  startNo: bigint;
  endNo: bigint;
  productionDate: string;
  bodyMaterial: BodyMaterial | null;
}

export async function insertRanges(db: Executor, values: (RangeValues & { id?: string })[]): Promise<string[]> {
  const rows = await db.insert(r).values(values).returning({ id: r.id });
  return rows.map((x) => x.id);
}

/** Many ranges in one statement over unnest()ed arrays (the CSV import's batches). */
export async function insertRangeBatch(db: Executor, values: (RangeValues & { id: string })[]): Promise<void> {
  const col = <T>(f: (v: RangeValues & { id: string }) => T) => sql.param(values.map(f));
  await db.execute(sql`INSERT INTO ${r} (id, product_id, prefix, width, start_no, end_no, production_date, body_material)
    SELECT * FROM unnest(${col((v) => v.id)}::uuid[], ${col((v) => v.productId)}::uuid[], ${col((v) => v.prefix)}::text[],
      ${col((v) => v.width)}::smallint[], ${col((v) => v.startNo.toString())}::bigint[], ${col((v) => v.endNo.toString())}::bigint[],
      ${col((v) => v.productionDate)}::date[], ${col((v) => v.bodyMaterial)}::text[])`);
}

export async function updateRange(db: Executor, id: string, v: RangeValues): Promise<boolean> {
  const rows = await db
    .update(r)
    .set({ ...v, updatedAt: sql`now()` })
    .where(eq(r.id, id))
    .returning({ id: r.id });
  return rows.length > 0;
}

/**
 * Withdraws the release of a range whose units changed (other serials or another product): the inspector
 * released what the gate showed then (decision 0052). True when there was one.
 */
export async function withdrawRelease(db: Executor, id: string): Promise<boolean> {
  return rowsOf(await db.execute(sql`DELETE FROM range_releases WHERE range_id = ${id} RETURNING range_id`)).length > 0;
}

export async function deleteRange(db: Executor, id: string): Promise<boolean> {
  const rows = await db.delete(r).where(eq(r.id, id)).returning({ id: r.id });
  return rows.length > 0;
}

export async function lockRange(db: Executor, id: string): Promise<void> {
  await db.select({ id: r.id }).from(r).where(eq(r.id, id)).for('update');
}

export async function productsExist(db: Executor, ids: string[]): Promise<Set<string>> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return new Set();
  const rows = await db.select({ id: products.id }).from(products).where(inArray(products.id, valid));
  return new Set(rows.map((x) => x.id));
}

/** A series spelt without its separators, with a number of the width: one way of reading a mistyped serial. */
export interface SerialReading {
  /** the prefix in the form the reading compares (`SerialSpelling`) */
  skeleton: string;
  width: number;
  number: bigint;
  /** the likelier readings have the lower ranks; readings of one rank are equally likely */
  rank: number;
}

/**
 * How a range's prefix is written to compare with a reading's skeleton, each an expression index:
 * - `separators`: without - _ / . (migration 0013);
 * - `read-alike`: without them and with the look-alike letters O I S B as the digits 0 1 5 8 (migration 0040).
 */
export type SerialSpelling = 'separators' | 'read-alike';
const PREFIX_AS: Record<SerialSpelling, string> = {
  separators: `translate(s.prefix, '-_/.', '')`,
  'read-alike': `translate(s.prefix, 'OISB-_/.', '0158')`,
};

/**
 * The serials (canonical) that exist among `readings`, each with its reading's rank, at most `limit` of the
 * best ranks: a range whose prefix spelt as `spelling` is the reading's skeleton, of its width, holding its
 * number. An index step per reading; the readings come from one typed text, so there are few.
 */
export async function findSerialsInReadings(
  db: Executor,
  spelling: SerialSpelling,
  readings: readonly SerialReading[],
  limit: number,
): Promise<Array<{ serial: string; rank: number }>> {
  if (readings.length === 0) return [];
  const values = sql.join(
    readings.map((x) => sql`(${x.skeleton}::text, ${x.width}::int, ${x.number.toString()}::bigint, ${x.rank}::int)`),
    sql`, `,
  );
  // Per reading, the few ranges of its series that start at or below its number, newest start first (an
  // index step, as the exact lookup's): a join over all readings at once let the planner scan every range,
  // seconds on a million of them. Several, not one: two prefixes may share their letters without separators
  // (BF-300 and BF300) and interleave.
  const rows = rowsOf<{ prefix: string; width: number; n: string; rank: number }>(
    await db.execute(sql`
      select distinct r.prefix, r.width, c.n::text as n, c.rank
      from (values ${values}) as c(skeleton, width, n, rank)
      cross join lateral (
        select s.prefix, s.width, s.end_no
        from serial_ranges s
        where ${sql.raw(PREFIX_AS[spelling])} = c.skeleton and s.width = c.width and s.start_no <= c.n
        order by s.start_no desc
        limit 8
      ) r
      where r.end_no >= c.n
      order by c.rank, r.prefix, r.width, n
      limit ${limit}`),
  );
  return rows.map((r) => ({
    serial: formatSerial({ prefix: r.prefix, width: Number(r.width), number: BigInt(r.n) }),
    rank: Number(r.rank),
  }));
}

/** The widths the ranges' numbers have (a few: most makers use one or two). */
export async function serialWidths(db: Executor): Promise<number[]> {
  const rows = rowsOf<{ width: number }>(await db.execute(sql`select distinct width from serial_ranges order by width`));
  return rows.map((r) => Number(r.width));
}
