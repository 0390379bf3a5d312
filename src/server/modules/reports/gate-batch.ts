/**
 * The release gate of many units in three statements instead of two per unit: the gate of readUnit and
 * gateOf (report-data.ts) over the same facts — the product of the range holding each serial, and the
 * records the gate reads (the latest of each test type, under the same bench-records rule), the traces of the
 * parts and, when asked, the release rule (release-rule.ts). The dashboard counts the held units of open
 * deliveries with it, a range's release summary judges its units, and the demo picks units that pass.
 */
import { inArray, sql, type SQL } from 'drizzle-orm';
import type { TestType } from '../../../shared/contract/machine-data';
import type { Verdict } from '../../../shared/standards/reasons';
import type { DocumentType } from '../../../shared/contract/settings';
import type { TestSide } from '../../../shared/contract/test-conditions';
import { parseSerial } from '../../../shared/serial';
import { rowsOf, type Executor } from '../../db/client';
import { products, type ProductRow } from '../../db/schema/index';
import { BENCH_RECORDS_WHEN_ASKED, productGate, type GateResult, type RecordHead } from './report-data';
import { needsTrace, traceHolds, tracesOf } from '../materials/traceability';
import { orderDocumentType, withReleaseRule } from './release-rule';

interface HeadRow {
  key: string;
  id: unknown;
  test_type: TestType;
  result: 'pass' | 'fail';
  outcome: 'pass' | 'fail';
  verdict: Verdict;
  reasons: unknown;
  tested_at: Date | string;
  content_hash: Uint8Array;
  side: TestSide | null;
}

/** A unit's gate and the product of the range holding it (null: no range holds the serial). */
export type UnitGate = GateResult & { productId: string | null };

export interface GateOptions {
  /** the certificate the gate is for: a Settings' type or an order's EN 10204 type (default: the Settings') */
  documentType?: DocumentType | '2.2' | '3.1' | '3.2';
  /**
   * Apply the release rule: an inspection certificate holds a unit whose range no authorised inspector has
   * released, as a delivery's gate does. Left out where the release itself is being weighed.
   */
  releaseRule?: boolean;
}

/**
 * The gate of every unit `units` lists (a query with the columns `key` (text, unique), `prefix`, `width` and
 * `serial_no`), with the product of the range holding it. A serial no range holds has no data, as readUnit
 * finds it.
 */
export async function gatesOf(db: Executor, units: SQL, options: GateOptions = {}): Promise<Map<string, UnitGate>> {
  // The range holding a serial: the series' range starting at or before it, if it reaches it (findRangeHolding).
  const held = rowsOf<{ key: string; product_id: string | null; released: boolean | null }>(
    await db.execute(sql`WITH u AS (${units})
      SELECT u.key::text AS key, r.product_id::text AS product_id,
             ${options.releaseRule ? sql`EXISTS (SELECT 1 FROM range_releases rr WHERE rr.range_id = r.id)` : sql`NULL::boolean`} AS released
        FROM u
      LEFT JOIN LATERAL (SELECT s.id, s.end_no, s.product_id FROM serial_ranges s
        WHERE s.prefix = u.prefix AND s.width = u.width AND s.start_no <= u.serial_no
        ORDER BY s.start_no DESC LIMIT 1) r ON r.end_no >= u.serial_no`),
  );
  const productIds = [...new Set(held.map((h) => h.product_id).filter((id): id is string => id !== null))];
  const byId = new Map<string, ProductRow>();
  if (productIds.length) for (const p of await db.select().from(products).where(inArray(products.id, productIds))) byId.set(p.id, p);

  // The gate reads each test type's latest record (latestByType) and, for a bidirectional valve's closure
  // tests, the latest covering each side (closure-sides.ts): the latest per test type and stated side holds
  // both, so only those are read.
  const heads = new Map<string, RecordHead[]>();
  const rows = rowsOf<HeadRow>(
    await db.execute(sql`WITH u AS (${units})
      SELECT DISTINCT ON (u.key, test_records.test_type, test_records.side) u.key::text AS key, test_records.id, test_records.test_type,
             test_records.result, test_records.outcome, test_records.verdict, test_records.reasons, test_records.tested_at,
             test_records.content_hash, test_records.side
        FROM u JOIN test_records ON test_records.prefix = u.prefix AND test_records.width = u.width AND test_records.serial_no = u.serial_no
       WHERE ${BENCH_RECORDS_WHEN_ASKED}
       ORDER BY u.key, test_records.test_type, test_records.side, test_records.tested_at DESC, test_records.id DESC`),
  );
  for (const r of rows) {
    const list = heads.get(r.key) ?? [];
    list.push({
      id: Number(r.id),
      testType: r.test_type,
      result: r.result,
      outcome: r.outcome,
      verdict: r.verdict,
      reasons: Number(r.reasons),
      testedAt: new Date(r.tested_at),
      contentHash: Buffer.from(r.content_hash),
      side: r.side,
    });
    heads.set(r.key, list);
  }

  // The parts of units whose certificate traces its materials, as gateOf does.
  const documentType = await certificateType(db, options.documentType);
  const traced = needsTrace(documentType)
    ? await tracesOf(
        db,
        sql`SELECT u.key::text AS key, u.prefix, u.width, u.serial_no, r.product_id FROM (${units}) u
          JOIN LATERAL (SELECT s.end_no, s.product_id FROM serial_ranges s
            WHERE s.prefix = u.prefix AND s.width = u.width AND s.start_no <= u.serial_no
            ORDER BY s.start_no DESC LIMIT 1) r ON r.end_no >= u.serial_no`,
      )
    : null;

  // Each product's requirement is derived once, not once a unit.
  const gateOfId = new Map([...byId].map(([id, p]) => [id, productGate(p)]));
  const out = new Map<string, UnitGate>();
  for (const h of held) {
    const product = h.product_id ? byId.get(h.product_id) : undefined;
    const gateOfHeads = product ? gateOfId.get(product.id) : undefined;
    let g: GateResult = gateOfHeads ? gateOfHeads(heads.get(h.key) ?? []) : { status: 'no-data', held: [] };
    if (traced && g.status !== 'no-data') {
      const holds = [...g.held, ...traceHolds(traced.get(h.key) ?? [])];
      g = { status: holds.length ? 'held' : 'pass', held: holds };
    }
    if (options.releaseRule) g = withReleaseRule(g, documentType, h.released === true);
    out.set(h.key, { ...g, productId: product?.id ?? null });
  }
  return out;
}

async function certificateType(db: Executor, asked: GateOptions['documentType']): Promise<DocumentType> {
  if (asked === '2.2' || asked === '3.1' || asked === '3.2') return orderDocumentType(asked);
  if (asked) return asked;
  const [settings] = rowsOf<{ document_type: DocumentType }>(await db.execute(sql`SELECT document_type FROM settings LIMIT 1`));
  return settings?.document_type ?? 'test-report-2.2';
}

/** A unit as gatesOf's `units` lists it: a unique key and its series. */
export interface ListedUnit {
  key: string;
  prefix: string;
  width: number;
  serialNo: bigint | string;
}

/** `units` for gatesOf from units in hand. */
export function listedUnits(units: readonly ListedUnit[]): SQL {
  const col = <T>(f: (u: ListedUnit) => T) => sql.param(units.map(f));
  return sql`SELECT * FROM unnest(${col((u) => u.key)}::text[], ${col((u) => u.prefix)}::text[], ${col((u) => u.width)}::smallint[],
    ${col((u) => u.serialNo.toString())}::bigint[]) AS v (key, prefix, width, serial_no)`;
}

/** `units` for gatesOf from serials as typed; a serial that does not parse is left out. Keyed by the serial. */
export function serialUnits(serials: readonly string[]): SQL {
  return listedUnits(
    serials.flatMap((s) => {
      const p = parseSerial(s);
      return p ? [{ key: s, prefix: p.prefix, width: p.width, serialNo: p.number }] : [];
    }),
  );
}
