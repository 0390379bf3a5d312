/**
 * The material catalogue and the parts of a product (docs/decisions/0053-materials-and-heats.md): a material
 * is a specification and grade with the product rating its pressures follow; a product names its parts, each
 * with a material. Every change is audited in its transaction.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import {
  materialName,
  type HeatStatus,
  type Material,
  type MaterialValues,
  type PartsValues,
  type ProductPart,
} from '../../../shared/contract/materials';
import { judgeHeat, limitsOf, type Finding, type HeatProperties } from '../../../shared/standards/material-limits';
import { AppError } from '../../../shared/errors';
import { rowsOf, type Db, type Executor } from '../../db/client';
import { isUuid, PG, pgErrorCode } from '../../db/errors';
import { materials, productParts, products } from '../../db/schema/index';
import { recordAudit, type AuditActor } from '../audit/audit.writer';

export const MATERIAL_ENTITY = 'material';

const notFound = () => new AppError('not-found', 'materials.notFound');
const taken = () => new AppError('already-exists', 'materials.taken', { fields: [{ field: 'grade', key: 'materials.taken' }] });

interface MaterialRow {
  id: string;
  specification: string;
  grade: string;
  rating_basis: Material['ratingBasis'];
  material_group: string;
  heat_count: number | string;
  created_at: Date | string;
  updated_at: Date | string;
}

const iso = (d: Date | string) => new Date(d).toISOString();

function toMaterial(r: MaterialRow): Material {
  return {
    id: r.id,
    specification: r.specification,
    grade: r.grade,
    ratingBasis: r.rating_basis,
    materialGroup: r.material_group,
    heatCount: Number(r.heat_count),
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

const SELECT = sql`SELECT m.id::text AS id, m.specification, m.grade, m.rating_basis, m.material_group, m.created_at, m.updated_at,
  (SELECT count(*) FROM heats h WHERE h.material_id = m.id) AS heat_count FROM materials m`;

export async function listMaterials(db: Executor): Promise<Material[]> {
  return rowsOf<MaterialRow>(await db.execute(sql`${SELECT} ORDER BY lower(m.specification), lower(m.grade)`)).map(toMaterial);
}

export async function findMaterial(db: Executor, id: string): Promise<Material | null> {
  if (!isUuid(id)) return null;
  const [row] = rowsOf<MaterialRow>(await db.execute(sql`${SELECT} WHERE m.id = ${id}::uuid`));
  return row ? toMaterial(row) : null;
}

const audited = (m: Material) => ({
  specification: m.specification,
  grade: m.grade,
  ratingBasis: m.ratingBasis,
  materialGroup: m.materialGroup,
});

async function uniqueOr<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (pgErrorCode(err) === PG.uniqueViolation) throw taken();
    throw err;
  }
}

export async function createMaterial(db: Db, actor: AuditActor, v: MaterialValues): Promise<Material> {
  return uniqueOr(() =>
    db.transaction(async (tx) => {
      const [row] = await tx
        .insert(materials)
        .values({ specification: v.specification, grade: v.grade, ratingBasis: v.ratingBasis, materialGroup: v.materialGroup })
        .returning({ id: materials.id });
      const created = (await findMaterial(tx, row!.id))!;
      await recordAudit(tx, actor, { action: 'create', entity: MATERIAL_ENTITY, entityId: created.id, after: audited(created) });
      return created;
    }),
  );
}

export async function updateMaterial(db: Db, actor: AuditActor, id: string, v: MaterialValues): Promise<Material> {
  if (!isUuid(id)) throw notFound();
  return uniqueOr(() =>
    db.transaction(async (tx) => {
      await tx.execute(sql`SELECT 1 FROM materials WHERE id = ${id}::uuid FOR UPDATE`);
      const before = await findMaterial(tx, id);
      if (!before) throw notFound();
      await tx
        .update(materials)
        .set({
          specification: v.specification,
          grade: v.grade,
          ratingBasis: v.ratingBasis,
          materialGroup: v.materialGroup,
          updatedAt: sql`now()`,
        })
        .where(eq(materials.id, id));
      const after = (await findMaterial(tx, id))!;
      const held = before.specification !== after.specification || before.grade !== after.grade ? await judgeHeatsAgain(tx, after) : [];
      // The rating basis names the rating a range's pressures are judged by, through its body's heat: those
      // ranges follow it, and their records are judged again (serial_ranges' rematch trigger).
      if (before.ratingBasis !== after.ratingBasis)
        await tx.execute(sql`UPDATE serial_ranges SET body_material = ${after.ratingBasis}, updated_at = now()
          WHERE body_material IS DISTINCT FROM ${after.ratingBasis} AND id IN (SELECT rh.range_id FROM range_heats rh
            JOIN heats h ON h.id = rh.heat_id WHERE rh.part = 'body' AND h.material_id = ${id}::uuid)`);
      await recordAudit(tx, actor, {
        action: 'update',
        entity: MATERIAL_ENTITY,
        entityId: id,
        before: audited(before),
        after: { ...audited(after), ...(held.length ? { heatsHeld: held } : {}) },
      });
      return after;
    }),
  );
}

/**
 * Another specification or grade brings other cited limits: each heat of the material is judged against them
 * again, and one whose reported values fall outside them is held. A material's change never releases a heat
 * (staff do, on the heat): its findings are brought up to date and its status stays. The numbers of the heats
 * it held.
 */
async function judgeHeatsAgain(tx: Executor, m: Material): Promise<string[]> {
  const limits = limitsOf(m.specification, m.grade);
  const rows = rowsOf<{ id: string; number: string; status: HeatStatus; properties: HeatProperties; findings: Finding[] }>(
    await tx.execute(sql`SELECT id::text, number, status, properties, findings FROM heats WHERE material_id = ${m.id}::uuid FOR UPDATE`),
  );
  const held: string[] = [];
  for (const h of rows) {
    const { findings, status } = judgeHeat(limits, h.properties, h.status);
    if (status === h.status && JSON.stringify(findings) === JSON.stringify(h.findings)) continue;
    if (status !== h.status) held.push(h.number);
    await tx.execute(
      sql`UPDATE heats SET findings = ${JSON.stringify(findings)}::jsonb, status = ${status}, updated_at = now() WHERE id = ${h.id}::uuid`,
    );
  }
  return held;
}

/** A material that a heat or a product's part names stays: 409, naming what holds it. */
export async function deleteMaterial(db: Db, actor: AuditActor, id: string): Promise<void> {
  if (!isUuid(id)) throw notFound();
  await db.transaction(async (tx) => {
    const before = await findMaterial(tx, id);
    if (!before) throw notFound();
    const [used] = rowsOf<{ parts: number | string }>(
      await tx.execute(sql`SELECT count(*) AS parts FROM product_parts WHERE material_id = ${id}::uuid`),
    );
    if (before.heatCount > 0 || Number(used?.parts ?? 0) > 0)
      throw new AppError('failed-precondition', 'materials.inUse', {
        params: { heats: before.heatCount, parts: Number(used?.parts ?? 0) },
      });
    await tx.delete(materials).where(eq(materials.id, id));
    await recordAudit(tx, actor, { action: 'delete', entity: MATERIAL_ENTITY, entityId: id, before: audited(before) });
  });
}

async function productExists(db: Executor, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  return (await db.select({ id: products.id }).from(products).where(eq(products.id, id)).limit(1)).length > 0;
}

/** The parts a product names, in the certificate's order. */
export async function partsOf(db: Executor, productId: string): Promise<ProductPart[]> {
  const rows = await db
    .select({
      part: productParts.part,
      materialId: productParts.materialId,
      specification: materials.specification,
      grade: materials.grade,
      ratingBasis: materials.ratingBasis,
    })
    .from(productParts)
    .innerJoin(materials, eq(materials.id, productParts.materialId))
    .where(eq(productParts.productId, productId))
    .orderBy(asc(sql`array_position(ARRAY['body','bonnet','closure','stem','seat','bolting'], ${productParts.part})`));
  return rows.map((r) => ({ part: r.part, materialId: r.materialId, material: materialName(r), ratingBasis: r.ratingBasis }));
}

export async function getParts(db: Db, productId: string): Promise<ProductPart[]> {
  if (!(await productExists(db, productId))) throw new AppError('not-found', 'errors.productNotFound');
  return partsOf(db, productId);
}

/**
 * Replaces a product's parts. Each material must exist (a field error names the row). The product's
 * updated time moves, so its units' certificates are issued again with the new parts.
 */
export async function setParts(db: Db, actor: AuditActor, productId: string, v: PartsValues): Promise<ProductPart[]> {
  return db.transaction(async (tx) => {
    if (!(await productExists(tx, productId))) throw new AppError('not-found', 'errors.productNotFound');
    await tx.execute(sql`SELECT 1 FROM products WHERE id = ${productId}::uuid FOR UPDATE`);
    const missing = [];
    for (const [i, p] of v.parts.entries())
      if (!(await findMaterial(tx, p.materialId))) missing.push({ field: `parts.${i}.materialId`, key: 'materials.notFound' });
    if (missing.length) throw new AppError('invalid-argument', 'errors.invalidRequest', { fields: missing });
    const before = await partsOf(tx, productId);
    await tx.delete(productParts).where(eq(productParts.productId, productId));
    if (v.parts.length) await tx.insert(productParts).values(v.parts.map((p) => ({ productId, part: p.part, materialId: p.materialId })));
    await tx
      .update(products)
      .set({ updatedAt: sql`now()` })
      .where(eq(products.id, productId));
    const after = await partsOf(tx, productId);
    const shape = (list: ProductPart[]) => Object.fromEntries(list.map((p) => [p.part, p.material]));
    await recordAudit(tx, actor, {
      action: 'update',
      entity: 'product',
      entityId: productId,
      before: { parts: shape(before) },
      after: { parts: shape(after) },
    });
    return after;
  });
}

/** The material a product names for a part, if it does. */
export async function partMaterial(db: Executor, productId: string, part: string): Promise<string | null> {
  const [row] = await db
    .select({ id: productParts.materialId })
    .from(productParts)
    .where(and(eq(productParts.productId, productId), sql`${productParts.part} = ${part}`));
  return row?.id ?? null;
}
