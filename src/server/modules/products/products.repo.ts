/** SQL of products. Every function takes the database or an open transaction. */
import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Product, ProductListQuery, ProductSort, ProductValues } from '../../../shared/contract/products';
import { pageWindow } from '../../../shared/contract/common';
import type { Executor } from '../../db/client';
import { products, serialRanges, type ProductRow } from '../../db/schema/index';
import { likePattern, MAX_OFFSET } from '../../db/errors';
import { naturalSortSql } from '../../db/natural-sort';

const num = (v: string | null): number | null => (v === null ? null : Number(v));

export function toProduct(r: ProductRow): Product {
  return {
    id: r.id,
    name: r.name,
    nameZh: r.nameZh,
    fluid: r.fluid,
    connection: r.connection,
    application: r.application,
    applicationMedium: r.applicationMedium,
    connectionZh: r.connectionZh,
    applicationZh: r.applicationZh,
    applicationMediumZh: r.applicationMediumZh,
    pressureFc: num(r.pressureFc),
    pressureWcb: num(r.pressureWcb),
    pressureSus: num(r.pressureSus),
    temperatureMax: Number(r.temperatureMax),
    temperatureMin: Number(r.temperatureMin),
    valveType: r.valveType,
    nominalSize: r.nominalSize,
    pressureClass: r.pressureClass,
    seatType: r.seatType,
    testStandard: r.testStandard,
    leakageRate: r.leakageRate,
    testEdition: r.testEdition,
    gtin: r.gtin,
    bidirectional: r.bidirectional,
    rangeCount: r.rangeCount,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** The row values of a validated input (numeric columns take their decimal text). */
export function toRow(v: ProductValues) {
  const dec = (n: number | null) => (n === null ? null : String(n));
  return {
    name: v.name,
    nameZh: v.nameZh,
    fluid: v.fluid,
    connection: v.connection,
    application: v.application,
    applicationMedium: v.applicationMedium,
    connectionZh: v.connectionZh,
    applicationZh: v.applicationZh,
    applicationMediumZh: v.applicationMediumZh,
    pressureFc: dec(v.pressureFc),
    pressureWcb: dec(v.pressureWcb),
    pressureSus: dec(v.pressureSus),
    temperatureMax: String(v.temperatureMax),
    temperatureMin: String(v.temperatureMin),
    valveType: v.valveType,
    nominalSize: v.nominalSize,
    pressureClass: v.pressureClass,
    seatType: v.seatType,
    testStandard: v.testStandard,
    leakageRate: v.leakageRate,
    // absent: a replace keeps the product's edition (the form and the CSV do not carry it)
    ...(v.testEdition === undefined ? {} : { testEdition: v.testEdition }),
    // absent: a replace keeps the product's GTIN (a client that does not know the field leaves it)
    ...(v.gtin === undefined ? {} : { gtin: v.gtin }),
    // absent: a replace keeps the product's directions, as it keeps its GTIN
    ...(v.bidirectional === undefined ? {} : { bidirectional: v.bidirectional }),
  };
}

const SORT_COLUMNS = {
  name: products.name,
  nameZh: products.nameZh,
  fluid: products.fluid,
  connection: products.connection,
  application: products.application,
  applicationMedium: products.applicationMedium,
  connectionZh: products.connectionZh,
  applicationZh: products.applicationZh,
  applicationMediumZh: products.applicationMediumZh,
  pressureFc: products.pressureFc,
  pressureWcb: products.pressureWcb,
  pressureSus: products.pressureSus,
  temperatureMax: products.temperatureMax,
  temperatureMin: products.temperatureMin,
  valveType: products.valveType,
  nominalSize: products.nominalSize,
  pressureClass: products.pressureClass,
  seatType: products.seatType,
  testStandard: products.testStandard,
  leakageRate: products.leakageRate,
  gtin: products.gtin,
  bidirectional: products.bidirectional,
  rangeCount: products.rangeCount,
  createdAt: products.createdAt,
  updatedAt: products.updatedAt,
} satisfies Record<ProductSort, unknown>;

function whereOf(q: Pick<ProductListQuery, 'q' | 'fluid'>): SQL | undefined {
  const parts: (SQL | undefined)[] = [];
  if (q.fluid) parts.push(eq(products.fluid, q.fluid));
  if (q.q) {
    const p = likePattern(q.q);
    parts.push(
      or(
        ilike(products.name, p),
        ilike(products.nameZh, p),
        ilike(products.connection, p),
        ilike(products.application, p),
        ilike(products.applicationMedium, p),
        ilike(products.connectionZh, p),
        ilike(products.applicationZh, p),
        ilike(products.applicationMediumZh, p),
        ilike(products.gtin, p),
      ),
    );
  }
  return and(...parts);
}

function orderOf(q: Pick<ProductListQuery, 'sort' | 'order'>): SQL[] {
  const sort = q.sort ?? 'name';
  // Names and classes carry numbers: DN25 before DN200, PN16 before PN100 (src/server/db/natural-sort.ts).
  const col = sort === 'name' || sort === 'nameZh' || sort === 'pressureClass' ? naturalSortSql(SORT_COLUMNS[sort]) : SORT_COLUMNS[sort];
  // Empty ratings go last in both directions: nobody sorts to see blanks first.
  const dir = q.order === 'desc' ? sql`desc nulls last` : sql`asc nulls last`;
  return [sql`${col} ${dir}`, q.order === 'desc' ? desc(products.id) : asc(products.id)];
}

export async function listProducts(db: Executor, q: ProductListQuery): Promise<{ items: Product[]; total: number }> {
  const where = whereOf(q);
  const { limit, offset } = pageWindow(q);
  // Past any real table's end (and past what a bigint OFFSET parameter can carry): an empty page.
  if (offset > MAX_OFFSET) return { items: [], total: await countProducts(db, where) };
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(products)
      .where(where)
      .orderBy(...orderOf(q))
      .limit(limit)
      .offset(offset),
    countProducts(db, where),
  ]);
  return { items: rows.map(toProduct), total };
}

async function countProducts(db: Executor, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ n: count() }).from(products).where(where);
  return Number(row?.n ?? 0);
}

/** Pages of the filtered, sorted list for the CSV export (products are few; offset paging is fine). */
export async function* productPages(db: Executor, q: ProductListQuery, size = 1000): AsyncGenerator<Product[]> {
  for (let offset = 0; ; offset += size) {
    const rows = await db
      .select()
      .from(products)
      .where(whereOf(q))
      .orderBy(...orderOf(q))
      .limit(size)
      .offset(offset);
    if (rows.length > 0) yield rows.map(toProduct);
    if (rows.length < size) return;
  }
}

export async function findProduct(db: Executor, id: string, forUpdate = false): Promise<ProductRow | undefined> {
  const query = db.select().from(products).where(eq(products.id, id)).limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function insertProduct(db: Executor, v: ProductValues): Promise<ProductRow> {
  const [row] = await db.insert(products).values(toRow(v)).returning();
  return row!;
}

export async function updateProduct(db: Executor, id: string, v: ProductValues): Promise<ProductRow | undefined> {
  const [row] = await db
    .update(products)
    .set({ ...toRow(v), updatedAt: sql`now()` })
    .where(eq(products.id, id))
    .returning();
  return row;
}

export async function deleteProduct(db: Executor, id: string): Promise<boolean> {
  const rows = await db.delete(products).where(eq(products.id, id)).returning({ id: products.id });
  return rows.length > 0;
}

export async function countRangesOf(db: Executor, productId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(serialRanges).where(eq(serialRanges.productId, productId));
  return Number(row?.n ?? 0);
}

/** Product ids by name, ignoring case (for the serial-range import). */
export async function productIdsByName(db: Executor, names: string[]): Promise<Map<string, string>> {
  if (names.length === 0) return new Map();
  const lowered = names.map((n) => n.toLowerCase());
  const rows = await db
    .select({ id: products.id, name: products.name })
    .from(products)
    .where(inArray(sql`lower(${products.name}::text)`, lowered));
  return new Map(rows.map((r) => [r.name.toLowerCase(), r.id]));
}
