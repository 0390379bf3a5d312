/**
 * The heats of a range's parts, and the per-serial exceptions for batches made from several heats
 * (docs/decisions/0053-materials-and-heats.md). A heat must be of the material the product names for the
 * part: a wrong one is refused with a message naming both. The body's heat sets the range's body material
 * (the rating its pressures are judged by) from its material's rating basis.
 */
import { and, eq, sql } from 'drizzle-orm';
import { materialName, PARTS, type Part, type RangeHeats, type RangeHeatsValues } from '../../../shared/contract/materials';
import { AppError } from '../../../shared/errors';
import { formatSerial, parseSerial } from '../../../shared/serial';
import { rowsOf, type Db, type Executor } from '../../db/client';
import { isUuid } from '../../db/errors';
import { rangeHeats, serialRanges, unitHeats } from '../../db/schema/index';
import { recordAudit, type AuditActor } from '../audit/audit.writer';
import { heatsNumbered } from './heats.service';
import { partsOf } from './materials.service';

const rangeNotFound = () => new AppError('not-found', 'serials.rangeNotFound');

interface RangeFacts {
  id: string;
  productId: string;
  prefix: string;
  width: number;
  startNo: bigint;
  endNo: bigint;
  bodyMaterial: string | null;
}

async function rangeOf(db: Executor, id: string, lock = false): Promise<RangeFacts> {
  if (!isUuid(id)) throw rangeNotFound();
  const q = db
    .select({
      id: serialRanges.id,
      productId: serialRanges.productId,
      prefix: serialRanges.prefix,
      width: serialRanges.width,
      startNo: serialRanges.startNo,
      endNo: serialRanges.endNo,
      bodyMaterial: serialRanges.bodyMaterial,
    })
    .from(serialRanges)
    .where(eq(serialRanges.id, id));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw rangeNotFound();
  return { ...row, startNo: BigInt(row.startNo), endNo: BigInt(row.endNo) };
}

export async function rangeHeatsOf(db: Executor, rangeId: string): Promise<RangeHeats> {
  const r = await rangeOf(db, rangeId);
  const heats = rowsOf<{ part: Part; heat_id: string; number: string; status: 'released' | 'hold'; specification: string; grade: string }>(
    await db.execute(sql`SELECT rh.part, h.id::text AS heat_id, h.number, h.status, m.specification, m.grade
      FROM range_heats rh JOIN heats h ON h.id = rh.heat_id JOIN materials m ON m.id = h.material_id
     WHERE rh.range_id = ${rangeId}::uuid
     ORDER BY array_position(ARRAY['body','bonnet','closure','stem','seat','bolting'], rh.part)`),
  );
  const [count] = rowsOf<{ n: string | number }>(
    await db.execute(sql`SELECT count(DISTINCT serial_no) AS n FROM unit_heats
      WHERE prefix = ${r.prefix} AND width = ${r.width} AND serial_no BETWEEN ${r.startNo.toString()}::bigint AND ${r.endNo.toString()}::bigint`),
  );
  return {
    heats: heats.map((h) => ({ part: h.part, heatId: h.heat_id, number: h.number, status: h.status, material: materialName(h) })),
    exceptions: Number(count?.n ?? 0),
  };
}

interface HeatFacts {
  id: string;
  number: string;
  materialId: string;
  material: string;
  ratingBasis: string;
}

async function heatFacts(db: Executor, ids: string[]): Promise<Map<string, HeatFacts>> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return new Map();
  const rows = rowsOf<{ id: string; number: string; material_id: string; specification: string; grade: string; rating_basis: string }>(
    await db.execute(sql`SELECT h.id::text AS id, h.number, h.material_id::text AS material_id, m.specification, m.grade, m.rating_basis
      FROM heats h JOIN materials m ON m.id = h.material_id WHERE h.id = ANY(${sql.param(valid)}::uuid[])`),
  );
  return new Map(
    rows.map((r) => [
      r.id,
      { id: r.id, number: r.number, materialId: r.material_id, material: materialName(r), ratingBasis: r.rating_basis },
    ]),
  );
}

/** "Heat H-1 is ASTM A216 WCB; the product's body is ASTM A351 CF8M." */
function wrongMaterial(field: string, heat: HeatFacts, part: Part, expected: string) {
  return { field, key: 'materials.wrongMaterial', params: { heat: heat.number, heatMaterial: heat.material, part, material: expected } };
}

/** Replaces the heats of a range's parts, all or nothing. */
export async function setRangeHeats(db: Db, actor: AuditActor, rangeId: string, v: RangeHeatsValues): Promise<RangeHeats> {
  return db.transaction(async (tx) => {
    const range = await rangeOf(tx, rangeId, true);
    const productParts = new Map((await partsOf(tx, range.productId)).map((p) => [p.part, p]));
    const facts = await heatFacts(
      tx,
      v.heats.map((h) => h.heatId),
    );
    const fields: { field: string; key: string; params?: Record<string, string> }[] = [];
    v.heats.forEach((h, i) => {
      const heat = facts.get(h.heatId);
      if (!heat) return fields.push({ field: `heats.${i}.heatId`, key: 'materials.heatNotFound' });
      const expected = productParts.get(h.part);
      if (expected && expected.materialId !== heat.materialId)
        fields.push(wrongMaterial(`heats.${i}.heatId`, heat, h.part, expected.material));
    });
    if (fields.length) throw new AppError('invalid-argument', 'errors.invalidRequest', { fields });
    const before = await rangeHeatsOf(tx, rangeId);
    await tx.delete(rangeHeats).where(eq(rangeHeats.rangeId, rangeId));
    if (v.heats.length) await tx.insert(rangeHeats).values(v.heats.map((h) => ({ rangeId, part: h.part, heatId: h.heatId })));
    // The body's heat names the material the range's pressures are rated for (a change re-judges its records).
    const body = v.heats.find((h) => h.part === 'body');
    const basis = body ? facts.get(body.heatId)!.ratingBasis : null;
    if (basis && basis !== range.bodyMaterial)
      await tx
        .update(serialRanges)
        .set({ bodyMaterial: basis as 'fc' | 'wcb' | 'sus', updatedAt: sql`now()` })
        .where(eq(serialRanges.id, rangeId));
    const after = await rangeHeatsOf(tx, rangeId);
    const shape = (x: RangeHeats) => Object.fromEntries(x.heats.map((h) => [h.part, `${h.number} (${h.material})`]));
    await recordAudit(tx, actor, {
      action: 'update',
      entity: 'serialRange',
      entityId: rangeId,
      before: { heats: shape(before), bodyMaterial: range.bodyMaterial },
      after: { heats: shape(after), bodyMaterial: basis ?? range.bodyMaterial },
    });
    return after;
  });
}

export interface UnitHeatRow {
  /** the file's row, for the answer's field errors */
  row: number;
  serial: string;
  part: string;
  heat: string;
}

/**
 * Per-serial exceptions from the CSV (serial, part, heat number), all or nothing: each serial must be one of
 * the range's, each part one of PARTS, each heat known by its number (of the part's material, where the
 * product names one, when several heats share the number). Stored rows replace the unit's earlier exception
 * for the part; an empty heat removes it.
 */
export async function importUnitHeats(
  db: Db,
  actor: AuditActor,
  rangeId: string,
  rows: UnitHeatRow[],
): Promise<{ stored: number; removed: number }> {
  return db.transaction(async (tx) => {
    const range = await rangeOf(tx, rangeId, true);
    const productParts = new Map((await partsOf(tx, range.productId)).map((p) => [p.part, p]));
    const numbered = await heatsNumbered(tx, [...new Set(rows.map((r) => r.heat.trim()).filter(Boolean))]);
    const fields: { field: string; key: string; params?: Record<string, string> }[] = [];
    const put: { serialNo: bigint; part: Part; heatId: string }[] = [];
    const remove: { serialNo: bigint; part: Part }[] = [];
    const seen = new Set<string>();
    for (const r of rows) {
      const at = (f: string) => `rows.${r.row}.${f}`;
      const parsed = parseSerial(r.serial);
      if (
        !parsed ||
        parsed.prefix !== range.prefix ||
        parsed.width !== range.width ||
        parsed.number < range.startNo ||
        parsed.number > range.endNo
      ) {
        fields.push({ field: at('serial'), key: 'materials.serialNotInRange', params: { serial: r.serial.trim() } });
        continue;
      }
      const part = r.part.trim().toLowerCase() as Part;
      if (!PARTS.includes(part)) {
        fields.push({ field: at('part'), key: 'materials.unknownPart', params: { part: r.part.trim() } });
        continue;
      }
      const key = `${parsed.number}:${part}`;
      if (seen.has(key)) {
        fields.push({ field: at('serial'), key: 'materials.unitPartTwice', params: { serial: formatSerial(parsed), part } });
        continue;
      }
      seen.add(key);
      const number = r.heat.trim();
      if (number === '') {
        remove.push({ serialNo: parsed.number, part });
        continue;
      }
      const expected = productParts.get(part);
      const candidates = numbered.filter((h) => h.number.toLowerCase() === number.toLowerCase());
      const fitting = expected ? candidates.filter((h) => h.materialId === expected.materialId) : candidates;
      if (candidates.length === 0) fields.push({ field: at('heat'), key: 'materials.unknownHeat', params: { heat: number } });
      else if (fitting.length === 0) {
        const h = candidates[0]!;
        fields.push(wrongMaterial(at('heat'), { ...h, ratingBasis: '' }, part, expected!.material));
      } else if (fitting.length > 1) fields.push({ field: at('heat'), key: 'materials.heatAmbiguous', params: { heat: number } });
      else put.push({ serialNo: parsed.number, part, heatId: fitting[0]!.id });
    }
    if (fields.length) throw new AppError('invalid-argument', 'materials.unitHeatsRefused', { params: { count: fields.length }, fields });
    for (const x of remove)
      await tx
        .delete(unitHeats)
        .where(
          and(
            eq(unitHeats.prefix, range.prefix),
            eq(unitHeats.width, range.width),
            eq(unitHeats.serialNo, x.serialNo),
            eq(unitHeats.part, x.part),
          ),
        );
    for (let i = 0; i < put.length; i += 1000) {
      const batch = put.slice(i, i + 1000);
      await tx
        .insert(unitHeats)
        .values(batch.map((x) => ({ prefix: range.prefix, width: range.width, serialNo: x.serialNo, part: x.part, heatId: x.heatId })))
        .onConflictDoUpdate({
          target: [unitHeats.prefix, unitHeats.width, unitHeats.serialNo, unitHeats.part],
          set: { heatId: sql`excluded.heat_id` },
        });
    }
    await recordAudit(tx, actor, {
      action: 'import',
      entity: 'serialRange',
      entityId: rangeId,
      after: { unitHeats: { stored: put.length, removed: remove.length } },
    });
    return { stored: put.length, removed: remove.length };
  });
}

/** A range's per-serial exceptions as CSV rows (serial, part, heat), in serial order. */
export async function unitHeatRows(db: Executor, rangeId: string): Promise<string[][]> {
  const r = await rangeOf(db, rangeId);
  const rows = rowsOf<{ serial_no: string; part: Part; number: string }>(
    await db.execute(sql`SELECT uh.serial_no::text AS serial_no, uh.part, h.number FROM unit_heats uh JOIN heats h ON h.id = uh.heat_id
      WHERE uh.prefix = ${r.prefix} AND uh.width = ${r.width} AND uh.serial_no BETWEEN ${r.startNo.toString()}::bigint AND ${r.endNo.toString()}::bigint
      ORDER BY uh.serial_no, array_position(ARRAY['body','bonnet','closure','stem','seat','bolting'], uh.part)`),
  );
  return rows.map((x) => [formatSerial({ prefix: r.prefix, width: r.width, number: BigInt(x.serial_no) }), x.part, x.number]);
}
