/**
 * Heats (casts, lots) and their mill certificates (docs/decisions/0053-materials-and-heats.md). A heat is of
 * one material; held by hand with a note, it holds the 3.1 and 3.2 certificates of every unit made from it.
 * Its certificate is a PDF of at most 20 MB, kept in the database in 1 MB pieces with its SHA-256, so neither
 * the upload nor the download holds the whole file in memory.
 */
import { createHash } from 'node:crypto';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import {
  HEAT_CERTIFICATE_MAX_BYTES,
  materialName,
  type Heat,
  type HeatListQuery,
  type HeatValues,
} from '../../../shared/contract/materials';
import { AppError } from '../../../shared/errors';
import { rowsOf, type Db, type Executor } from '../../db/client';
import { isUuid, likePattern, MAX_OFFSET, PG, pgErrorCode } from '../../db/errors';
import { pageWindow } from '../../../shared/contract/common';
import { heatCertificateChunks, heats } from '../../db/schema/index';
import { recordAudit, type AuditActor } from '../audit/audit.writer';
import { findMaterial } from './materials.service';
import { judgeHeat, limitsOf } from '../../../shared/standards/material-limits';

export const HEAT_ENTITY = 'heat';
/** The pieces a certificate is kept in. */
export const CHUNK_BYTES = 1024 * 1024;

export const heatNotFound = () => new AppError('not-found', 'materials.heatNotFound');
const taken = () => new AppError('already-exists', 'materials.heatTaken', { fields: [{ field: 'number', key: 'materials.heatTaken' }] });

interface HeatSqlRow {
  id: string;
  number: string;
  material_id: string;
  specification: string;
  grade: string;
  supplier: string;
  certificate_number: string;
  certificate_type: Heat['certificateType'];
  certificate_date: string | null;
  status: Heat['status'];
  hold_note: string;
  properties: Heat['properties'] | string;
  findings: Heat['findings'] | string;
  file_sha256: string | null;
  file_bytes: number | null;
  file_name: string | null;
  file_uploaded_at: Date | string | null;
  range_count: number | string;
  unit_count: number | string;
  created_at: Date | string;
  updated_at: Date | string;
  total?: number | string;
}

const iso = (d: Date | string) => new Date(d).toISOString();

function toHeat(r: HeatSqlRow): Heat {
  return {
    id: r.id,
    number: r.number,
    materialId: r.material_id,
    material: materialName(r),
    supplier: r.supplier,
    certificateNumber: r.certificate_number,
    certificateType: r.certificate_type,
    date: r.certificate_date ?? '',
    status: r.status,
    holdNote: r.hold_note,
    properties: typeof r.properties === 'string' ? (JSON.parse(r.properties) as Heat['properties']) : r.properties,
    findings: typeof r.findings === 'string' ? (JSON.parse(r.findings) as Heat['findings']) : r.findings,
    file:
      r.file_sha256 && r.file_bytes && r.file_uploaded_at
        ? { name: r.file_name ?? '', bytes: Number(r.file_bytes), sha256: r.file_sha256, uploadedAt: iso(r.file_uploaded_at) }
        : null,
    rangeCount: Number(r.range_count),
    unitCount: Number(r.unit_count),
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

const SELECT = sql`SELECT h.id::text AS id, h.number, h.material_id::text AS material_id, m.specification, m.grade, h.supplier,
  h.certificate_number, h.certificate_type, to_char(h.certificate_date, 'YYYY-MM-DD') AS certificate_date, h.status, h.hold_note,
  h.properties, h.findings,
  encode(h.file_sha256, 'hex') AS file_sha256, h.file_bytes, h.file_name, h.file_uploaded_at, h.created_at, h.updated_at,
  (SELECT count(*) FROM range_heats rh WHERE rh.heat_id = h.id) AS range_count,
  (SELECT count(*) FROM unit_heats uh WHERE uh.heat_id = h.id) AS unit_count
  FROM heats h JOIN materials m ON m.id = h.material_id`;

const ORDER: Record<string, SQL> = {
  number: sql`lower(x.number)`,
  date: sql`x.certificate_date`,
  createdAt: sql`x.created_at`,
};

export async function listHeats(db: Executor, q: HeatListQuery): Promise<{ items: Heat[]; total: number }> {
  const where: SQL[] = [sql`true`];
  if (q.materialId) where.push(sql`h.material_id = ${q.materialId}::uuid`);
  if (q.status) where.push(sql`h.status = ${q.status}`);
  if (q.q) {
    const p = likePattern(q.q);
    where.push(sql`(h.number ILIKE ${p} OR h.supplier ILIKE ${p} OR h.certificate_number ILIKE ${p})`);
  }
  const { limit, offset } = pageWindow(q);
  if (offset > MAX_OFFSET) return { items: [], total: 0 };
  const dir = q.order === 'asc' ? sql`ASC` : sql`DESC`;
  const by = ORDER[q.sort ?? 'createdAt'] ?? ORDER.createdAt!;
  const rows = rowsOf<HeatSqlRow>(
    await db.execute(sql`SELECT *, count(*) OVER () AS total FROM (${SELECT} WHERE ${sql.join(where, sql` AND `)}) x
      ORDER BY ${by} ${dir} NULLS LAST, x.id
      LIMIT ${limit} OFFSET ${offset}`),
  );
  return { items: rows.map(toHeat), total: Number(rows[0]?.total ?? 0) };
}

export async function findHeat(db: Executor, id: string): Promise<Heat | null> {
  if (!isUuid(id)) return null;
  const [row] = rowsOf<HeatSqlRow>(await db.execute(sql`${SELECT} WHERE h.id = ${id}::uuid`));
  return row ? toHeat(row) : null;
}

export async function getHeat(db: Executor, id: string): Promise<Heat> {
  const h = await findHeat(db, id);
  if (!h) throw heatNotFound();
  return h;
}

const audited = (h: Heat) => ({
  number: h.number,
  material: h.material,
  supplier: h.supplier,
  certificateNumber: h.certificateNumber,
  certificateType: h.certificateType,
  date: h.date,
  status: h.status,
  holdNote: h.holdNote,
  properties: h.properties,
  findings: h.findings,
  file: h.file ? { name: h.file.name, bytes: h.file.bytes, sha256: h.file.sha256 } : null,
});

async function uniqueOr<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (pgErrorCode(err) === PG.uniqueViolation) throw taken();
    throw err;
  }
}

async function materialOf(db: Executor, id: string): Promise<{ specification: string; grade: string }> {
  const m = await findMaterial(db, id);
  if (!m) throw new AppError('invalid-argument', 'errors.invalidRequest', { fields: [{ field: 'materialId', key: 'materials.notFound' }] });
  return m;
}

/**
 * The stored columns: the reported values judged against the material's cited limits; a value outside them
 * holds the heat whatever status was asked for (its findings say why; staff's note stays their own).
 */
const columns = (v: HeatValues, material: { specification: string; grade: string }) => {
  const { findings, status } = judgeHeat(limitsOf(material.specification, material.grade), v.properties, v.status);
  return {
    number: v.number,
    materialId: v.materialId,
    supplier: v.supplier,
    certificateNumber: v.certificateNumber,
    certificateType: v.certificateType,
    certificateDate: v.date === '' ? null : v.date,
    status,
    holdNote: v.status === 'hold' ? v.holdNote : '',
    properties: v.properties,
    findings,
  } as const;
};

export async function createHeat(db: Db, actor: AuditActor, v: HeatValues): Promise<Heat> {
  return uniqueOr(() =>
    db.transaction(async (tx) => {
      const material = await materialOf(tx, v.materialId);
      const [row] = await tx.insert(heats).values(columns(v, material)).returning({ id: heats.id });
      const created = (await findHeat(tx, row!.id))!;
      await recordAudit(tx, actor, { action: 'create', entity: HEAT_ENTITY, entityId: created.id, after: audited(created) });
      return created;
    }),
  );
}

/**
 * Changes a heat. Its material stays once a range or a unit is assigned it (their parts were checked
 * against it); holding or releasing it holds or releases their certificates at the gate.
 */
export async function updateHeat(db: Db, actor: AuditActor, id: string, v: HeatValues): Promise<Heat> {
  if (!isUuid(id)) throw heatNotFound();
  return uniqueOr(() =>
    db.transaction(async (tx) => {
      await tx.execute(sql`SELECT 1 FROM heats WHERE id = ${id}::uuid FOR UPDATE`);
      const before = await findHeat(tx, id);
      if (!before) throw heatNotFound();
      if (v.materialId !== before.materialId && before.rangeCount + before.unitCount > 0)
        throw new AppError('failed-precondition', 'materials.heatMaterialFixed', {
          fields: [{ field: 'materialId', key: 'materials.heatMaterialFixed' }],
        });
      const material = await materialOf(tx, v.materialId);
      await tx
        .update(heats)
        .set({ ...columns(v, material), updatedAt: sql`now()` })
        .where(eq(heats.id, id));
      const after = (await findHeat(tx, id))!;
      await recordAudit(tx, actor, { action: 'update', entity: HEAT_ENTITY, entityId: id, before: audited(before), after: audited(after) });
      return after;
    }),
  );
}

export async function deleteHeat(db: Db, actor: AuditActor, id: string): Promise<void> {
  if (!isUuid(id)) throw heatNotFound();
  await db.transaction(async (tx) => {
    const before = await findHeat(tx, id);
    if (!before) throw heatNotFound();
    if (before.rangeCount + before.unitCount > 0)
      throw new AppError('failed-precondition', 'materials.heatInUse', { params: { ranges: before.rangeCount, units: before.unitCount } });
    await tx.delete(heats).where(eq(heats.id, id));
    await recordAudit(tx, actor, { action: 'delete', entity: HEAT_ENTITY, entityId: id, before: audited(before) });
  });
}

const notPdf = () => new AppError('unsupported-media-type', 'materials.notPdf', { fields: [{ field: 'file', key: 'materials.notPdf' }] });
const tooLarge = () =>
  new AppError('out-of-range', 'materials.certificateTooLarge', {
    params: { max: '20 MB' },
    fields: [{ field: 'file', key: 'materials.certificateTooLarge' }],
  });

/**
 * The check an uploaded certificate passes through on its way to the spool: it must start as a PDF does
 * (`%PDF-`), end with a PDF's end-of-file marker, and stay within 20 MB. It fails at the first byte that
 * breaks a rule, so a file that is not a PDF, or too large, is refused before it is stored. Its SHA-256 is
 * taken as it passes.
 */
export function certificateCheck(): { through(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer>; sha256(): string; bytes(): number } {
  const hash = createHash('sha256');
  let seen = 0;
  async function* through(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    let head = Buffer.alloc(0);
    let tail = Buffer.alloc(0);
    for await (const chunk of source) {
      seen += chunk.length;
      if (seen > HEAT_CERTIFICATE_MAX_BYTES) throw tooLarge();
      if (head.length < 5) {
        head = Buffer.concat([head, chunk.subarray(0, 5 - head.length)]);
        if (!'%PDF-'.startsWith(head.toString('latin1'))) throw notPdf();
      }
      tail = Buffer.concat([tail, chunk]).subarray(-1024);
      hash.update(chunk);
      yield chunk;
    }
    if (head.length < 5 || !tail.includes('%%EOF')) throw notPdf();
  }
  return { through, sha256: () => hash.digest('hex'), bytes: () => seen };
}

/**
 * Stores a heat's certificate from its checked, spooled bytes, replacing the one it had, in one transaction:
 * a failure leaves the earlier certificate as it was.
 */
export async function storeCertificate(
  db: Db,
  actor: AuditActor,
  id: string,
  file: { name: string; sha256: string; bytes: number; read(): AsyncIterable<Uint8Array> },
): Promise<Heat> {
  if (!isUuid(id)) throw heatNotFound();
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT 1 FROM heats WHERE id = ${id}::uuid FOR UPDATE`);
    const before = await findHeat(tx, id);
    if (!before) throw heatNotFound();
    await tx.delete(heatCertificateChunks).where(eq(heatCertificateChunks.heatId, id));
    let seq = 0;
    let piece: Buffer[] = [];
    let size = 0;
    const flush = async () => {
      if (size === 0) return;
      await tx.insert(heatCertificateChunks).values({ heatId: id, seq: seq++, bytes: Buffer.concat(piece, size) });
      piece = [];
      size = 0;
    };
    for await (const chunk of file.read()) {
      let rest = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      while (rest.length > 0) {
        const take = rest.subarray(0, CHUNK_BYTES - size);
        piece.push(take);
        size += take.length;
        rest = rest.subarray(take.length);
        if (size === CHUNK_BYTES) await flush();
      }
    }
    await flush();
    await tx
      .update(heats)
      .set({
        fileSha256: Buffer.from(file.sha256, 'hex'),
        fileBytes: file.bytes,
        fileName: file.name,
        fileUploadedAt: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(eq(heats.id, id));
    const after = (await findHeat(tx, id))!;
    await recordAudit(tx, actor, { action: 'update', entity: HEAT_ENTITY, entityId: id, before: audited(before), after: audited(after) });
    return after;
  });
}

/** A heat's certificate, a piece at a time, or null when it has none. */
export async function certificateOf(db: Executor, id: string): Promise<{ heat: Heat; pieces: () => AsyncGenerator<Buffer> } | null> {
  const heat = await findHeat(db, id);
  if (!heat?.file) return null;
  async function* pieces(): AsyncGenerator<Buffer> {
    for (let seq = 0; ; seq++) {
      const [row] = await db
        .select({ bytes: heatCertificateChunks.bytes })
        .from(heatCertificateChunks)
        .where(and(eq(heatCertificateChunks.heatId, id), eq(heatCertificateChunks.seq, seq)));
      if (!row) return;
      yield row.bytes;
    }
  }
  return { heat, pieces };
}

/** Heats by number, with their material, for the per-serial CSV. */
export async function heatsNumbered(
  db: Executor,
  numbers: string[],
): Promise<Array<{ id: string; number: string; materialId: string; material: string }>> {
  if (numbers.length === 0) return [];
  const rows = rowsOf<{ id: string; number: string; material_id: string; specification: string; grade: string }>(
    await db.execute(sql`SELECT h.id::text AS id, h.number, h.material_id::text AS material_id, m.specification, m.grade
      FROM heats h JOIN materials m ON m.id = h.material_id
      WHERE lower(h.number) = ANY(${sql.param(numbers.map((n) => n.toLowerCase()))}::text[]) ORDER BY h.number, m.specification`),
  );
  return rows.map((r) => ({ id: r.id, number: r.number, materialId: r.material_id, material: materialName(r) }));
}
