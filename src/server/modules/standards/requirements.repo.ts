/**
 * The stored requirement rows of products (migration 0010) and the re-judgement of their records. The rows
 * are derived from the standards data (src/shared/standards/requirement.ts) whenever a product is written;
 * the database judges records against them in the statement that stores or re-matches the records.
 */
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { requirementRows, type JudgedProduct } from '../../../shared/standards/requirement';
import type { Executor } from '../../db/client';
import { productRequirements, products, type ProductRow } from '../../db/schema/index';

const num = (v: string | null) => (v === null ? null : Number(v));

export function judgedProduct(
  p: Pick<
    ProductRow,
    | 'testStandard'
    | 'valveType'
    | 'nominalSize'
    | 'seatType'
    | 'leakageRate'
    | 'pressureClass'
    | 'testEdition'
    | 'pressureFc'
    | 'pressureWcb'
    | 'pressureSus'
  >,
): JudgedProduct {
  return {
    testStandard: p.testStandard,
    valveType: p.valveType,
    nominalSize: p.nominalSize,
    seatType: p.seatType,
    leakageRate: p.leakageRate,
    pressureClass: p.pressureClass,
    testEdition: p.testEdition,
    pressureFc: num(p.pressureFc),
    pressureWcb: num(p.pressureWcb),
    pressureSus: num(p.pressureSus),
  };
}

type Row = typeof productRequirements.$inferInsert;

function rowsFor(productId: string, p: JudgedProduct): Row[] {
  const dec = (n: number | null) => (n === null ? null : String(n));
  return requirementRows(p).map(({ bodyMaterial, edition, from, to, req }) => ({
    productId,
    bodyMaterial,
    testType: req.testType,
    edition,
    inForceFrom: from === null ? null : new Date(`${from}T00:00:00Z`),
    inForceTo: to === null ? null : new Date(`${to}T00:00:00Z`),
    required: req.required,
    unrated: req.unrated,
    pressureMin: dec(req.pressureMin),
    pressureMax: dec(req.pressureMax),
    pressureFactor: dec(req.pressureBasis?.factor ?? null),
    pressureRated: dec(req.pressureBasis?.rated ?? null),
    pressureExact: dec(req.pressureBasis?.exact ?? null),
    pressureRounding: req.pressureBasis?.roundedBy ?? '',
    holdMin: req.holdMin,
    holdUnconfirmed: req.holdUnconfirmed,
    leakKind: req.leakage.kind,
    leakMax: dec(req.leakage.max),
    fluidTempMin: dec(req.fluidTemperature?.min ?? null),
    fluidTempMax: dec(req.fluidTemperature?.max ?? null),
  }));
}

const key = (r: Row) =>
  [
    r.bodyMaterial,
    r.testType,
    r.edition,
    r.inForceFrom ? new Date(r.inForceFrom).toISOString() : '',
    r.inForceTo ? new Date(r.inForceTo).toISOString() : '',
    r.required,
    r.unrated,
    num(r.pressureMin ?? null),
    num(r.pressureMax ?? null),
    num(r.pressureFactor ?? null),
    num(r.pressureRated ?? null),
    num(r.pressureExact ?? null),
    r.pressureRounding ?? '',
    r.holdMin,
    r.holdUnconfirmed ?? false,
    r.leakKind,
    num(r.leakMax ?? null),
    num(r.fluidTempMin ?? null),
    num(r.fluidTempMax ?? null),
  ].join('|');

/**
 * Derives the requirement rows of the given products (all when `ids` is omitted) and, for each product whose
 * rows changed, replaces them and judges its records again, in the caller's transaction. Returns the ids of
 * the products whose requirement changed.
 */
export async function syncRequirements(db: Executor, ids?: string[]): Promise<string[]> {
  if (ids && ids.length === 0) return [];
  // One writer of requirement rows at a time (a product edit, an import, the start-time derivation of
  // standards-version.ts): two replacing the same product's rows at once would collide on its key.
  await db.execute(sql`SELECT pg_advisory_xact_lock(7347022)`);
  const list = await db
    .select()
    .from(products)
    .where(ids ? inArray(products.id, ids) : undefined);
  if (list.length === 0) return [];
  const stored = await db
    .select()
    .from(productRequirements)
    .where(
      inArray(
        productRequirements.productId,
        list.map((p) => p.id),
      ),
    )
    .orderBy(asc(productRequirements.productId));
  const storedBy = new Map<string, string[]>();
  for (const r of stored) storedBy.set(r.productId, [...(storedBy.get(r.productId) ?? []), key(r)]);
  const changed: string[] = [];
  const inserts: Row[] = [];
  for (const p of list) {
    const rows = rowsFor(p.id, judgedProduct(p));
    const a = rows.map(key).sort().join('\n');
    const b = (storedBy.get(p.id) ?? []).sort().join('\n');
    if (a === b) continue;
    changed.push(p.id);
    inserts.push(...rows);
  }
  if (changed.length === 0) return [];
  await db.delete(productRequirements).where(inArray(productRequirements.productId, changed));
  for (let i = 0; i < inserts.length; i += 1000) await db.insert(productRequirements).values(inserts.slice(i, i + 1000));
  await db.execute(sql`SELECT test_records_judge(${sql.param(changed)}::uuid[], NULL, NULL, NULL, NULL)`);
  return changed;
}

/** The stored requirement rows of one product. */
export function requirementsOf(db: Executor, productId: string) {
  return db.select().from(productRequirements).where(eq(productRequirements.productId, productId));
}
