/**
 * What a unit is traceable to: each part the product names (with its material) or a heat is assigned to,
 * and the heat of that part (the unit's own exception, else its range's). The release gate holds a 3.1 or
 * 3.2 certificate while a pressure-retaining part the product names has no heat, or its heat is on hold
 * (docs/decisions/0053-materials-and-heats.md); the certificate prints the parts as its materials table.
 */
import { sql, type SQL } from 'drizzle-orm';
import { materialName, PRESSURE_PARTS, type HeatStatus, type Part, type PressurePart } from '../../../shared/contract/materials';
import type { DocumentType } from '../../../shared/contract/settings';
import type { ParsedSerial } from '../../../shared/serial';
import { rowsOf, type Executor } from '../../db/client';

export interface TracedPart {
  part: Part;
  /** the material the product names for the part; null when only a heat is assigned */
  material: string | null;
  heat: {
    id: string;
    number: string;
    material: string;
    status: HeatStatus;
    certificateNumber: string;
    certificateType: '3.1' | '3.2';
  } | null;
}

/** A unit's traceability, and the document type its certificate has without an order (Settings). */
export interface UnitTrace {
  parts: TracedPart[];
  settingsType: DocumentType;
  /** what the certificate's reuse key takes of it (SQL unit_trace_version); null when it traces nothing */
  version: string | null;
}

/** Why the gate holds a unit for its materials: a pressure part without a heat (heat null), or its heat on hold. */
export interface TraceHold {
  kind: 'untraced';
  part: PressurePart;
  heat: string | null;
}

const PART_ORDER = sql`ARRAY['body','bonnet','closure','stem','seat','bolting']`;

interface TraceRow {
  key: string;
  part: Part;
  p_spec: string | null;
  p_grade: string | null;
  heat_id: string | null;
  number: string | null;
  status: HeatStatus | null;
  certificate_number: string | null;
  certificate_type: '3.1' | '3.2' | null;
  h_spec: string | null;
  h_grade: string | null;
}

function toPart(r: TraceRow): TracedPart {
  return {
    part: r.part,
    material: r.p_spec !== null && r.p_grade !== null ? materialName({ specification: r.p_spec, grade: r.p_grade }) : null,
    heat:
      r.heat_id && r.number && r.status && r.certificate_type
        ? {
            id: r.heat_id,
            number: r.number,
            material: materialName({ specification: r.h_spec ?? '', grade: r.h_grade ?? '' }),
            status: r.status,
            certificateNumber: r.certificate_number ?? '',
            certificateType: r.certificate_type,
          }
        : null,
  };
}

/**
 * The traced parts of many units at once: `units` is a query with the columns `key` (text, unique), `prefix`,
 * `width`, `serial_no` and `product_id` (the product of the range holding the serial).
 */
export async function tracesOf(db: Executor, units: SQL): Promise<Map<string, TracedPart[]>> {
  const rows = rowsOf<TraceRow>(
    await db.execute(sql`WITH u AS (${units})
      SELECT u.key::text AS key, coalesce(x.pp_part, x.h_part) AS part, pm.specification AS p_spec, pm.grade AS p_grade,
             he.id::text AS heat_id, he.number, he.status, he.certificate_number, he.certificate_type,
             hm.specification AS h_spec, hm.grade AS h_grade
        FROM u
        CROSS JOIN LATERAL (
          SELECT pp.part AS pp_part, pp.material_id, h.part AS h_part, h.heat_id
            FROM (SELECT part, material_id FROM product_parts WHERE product_id = u.product_id::uuid) pp
            FULL JOIN unit_heat_parts(u.prefix::text, u.width::smallint, u.serial_no::bigint) h ON h.part = pp.part
        ) x
        LEFT JOIN materials pm ON pm.id = x.material_id
        LEFT JOIN heats he ON he.id = x.heat_id
        LEFT JOIN materials hm ON hm.id = he.material_id
       ORDER BY u.key, array_position(${PART_ORDER}::text[], coalesce(x.pp_part, x.h_part))`),
  );
  const out = new Map<string, TracedPart[]>();
  for (const r of rows) {
    const list = out.get(r.key) ?? [];
    list.push(toPart(r));
    out.set(r.key, list);
  }
  return out;
}

/** One unit's traced parts and the Settings' document type. */
export async function unitTrace(db: Executor, p: ParsedSerial, productId: string): Promise<UnitTrace> {
  const units = sql`SELECT 'u'::text AS key, ${p.prefix}::text AS prefix, ${p.width}::smallint AS width, ${p.number.toString()}::bigint AS serial_no,
    ${productId}::uuid AS product_id`;
  const parts = await tracesOf(db, units);
  const [facts] = rowsOf<{ document_type: DocumentType | null; version: string | null }>(
    await db.execute(sql`SELECT (SELECT document_type FROM settings LIMIT 1) AS document_type,
      unit_trace_version(${p.prefix}::text, ${p.width}::smallint, ${p.number.toString()}::bigint, ${productId}::uuid) AS version`),
  );
  return { parts: parts.get('u') ?? [], settingsType: facts?.document_type ?? 'test-report-2.2', version: facts?.version ?? null };
}

/** Whether a certificate of this type must trace its materials (EN 10204 3.1 and 3.2: specific inspection). */
export function needsTrace(type: DocumentType | '2.2' | '3.1' | '3.2'): boolean {
  return type !== 'test-report-2.2' && type !== '2.2';
}

/**
 * The traceability holds of a unit's parts: a pressure-retaining part whose heat is on hold, or one the
 * product names that has no heat. A product that names no parts holds nothing for them.
 */
export function traceHolds(parts: readonly TracedPart[]): TraceHold[] {
  const out: TraceHold[] = [];
  for (const part of PRESSURE_PARTS) {
    const p = parts.find((x) => x.part === part);
    if (!p) continue;
    if (p.heat?.status === 'hold') out.push({ kind: 'untraced', part, heat: p.heat.number });
    else if (!p.heat && p.material !== null) out.push({ kind: 'untraced', part, heat: null });
  }
  return out;
}
