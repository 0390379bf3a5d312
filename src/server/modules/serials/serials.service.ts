/**
 * The rules of serial-number ranges. The shared schema has already checked the grammar, the series, the
 * order, the size and Total Units; here: the product exists, and no two ranges overlap. The database's
 * exclusion constraint is the guarantee (also between concurrent requests); this service turns its
 * violation into a 409 that names the range it collided with.
 */
import type { Product } from '../../../shared/contract/products';
import type { HistoryEntry } from '../../../shared/contract/record-history';
import type { SerialRange, SerialRangeListQuery, SerialRangeValues } from '../../../shared/contract/serials';
import { AppError } from '../../../shared/errors';
import { normaliseSerial, parseSerial, rangeLabel, SERIAL_MAX_LENGTH, SERIAL_MAX_WIDTH } from '../../../shared/serial';
import type { Db, Executor } from '../../db/client';
import { recordAudit, type AuditActor } from '../audit/audit.writer';
import { isUuid, PG, pgErrorCode, retryingConflicts } from '../../db/errors';
import { recordHistory } from '../audit/record-history';
import { toProduct } from '../products/products.service';
import * as repo from './serials.repo';
import { misreadings } from './misreadings';

/** The range that holds a serial, for other modules (machine data, reports), which never read the repo. */
export { findRange, findRangeHolding, type RangeRow } from './serials.repo';

export const RANGE_ENTITY = 'serialRange';

export function rangeNotFound(): AppError {
  return new AppError('not-found', 'serials.rangeNotFound');
}

function productMissing(): AppError {
  return new AppError('not-found', 'errors.productNotFound', { fields: [{ field: 'productId', key: 'errors.productNotFound' }] });
}

/** The validated input as row values (the schema guarantees both serials parse and share a series). */
export function toValues(
  v: Pick<SerialRangeValues, 'startSerial' | 'endSerial' | 'productionDate' | 'bodyMaterial'>,
  productId: string,
): repo.RangeValues {
  const a = parseSerial(v.startSerial)!;
  const b = parseSerial(v.endSerial)!;
  return {
    productId,
    prefix: a.prefix,
    width: a.width,
    startNo: a.number,
    endNo: b.number,
    productionDate: v.productionDate,
    bodyMaterial: v.bodyMaterial,
  };
}

/** What the audit log keeps of a range: its API shape without timestamps. */
export function auditShape(s: SerialRange): Record<string, unknown> {
  const { createdAt: _c, updatedAt: _u, ...rest } = s;
  return rest;
}

export function overlapError(other: repo.RangeRow, field = 'startSerial'): AppError {
  const o = repo.toRange(other);
  const params = { range: rangeLabel(o.startSerial, o.endSerial), product: o.productName };
  return new AppError('already-exists', 'serials.overlap', { params, fields: [{ field, key: 'serials.overlap', params }] });
}

/** After an exclusion violation: find the range we collided with (committed by now) and name it. */
async function collision(db: Executor, v: repo.RangeValues, exceptId?: string): Promise<AppError> {
  const other = await repo.findOverlapping(db, v, v.startNo, v.endNo, exceptId);
  // The other range was deleted again in between: the caller may simply retry.
  return other ? overlapError(other) : new AppError('aborted', 'errors.invalidRequest');
}

export function listRanges(db: Db, q: SerialRangeListQuery) {
  return repo.listRanges(db, q);
}

export async function getRange(db: Executor, id: string): Promise<SerialRange> {
  const row = isUuid(id) ? await repo.findRange(db, id) : undefined;
  if (!row) throw rangeNotFound();
  return repo.toRange(row);
}

export async function createRange(db: Db, actor: AuditActor, v: SerialRangeValues): Promise<SerialRange> {
  if (!isUuid(v.productId)) throw productMissing();
  const values = toValues(v, v.productId);
  try {
    return await retryingConflicts(() =>
      db.transaction(async (tx) => {
        if ((await repo.productsExist(tx, [v.productId])).size === 0) throw productMissing();
        const [id] = await repo.insertRanges(tx, [values]);
        const created = await getRange(tx, id!);
        await recordAudit(tx, actor, { action: 'create', entity: RANGE_ENTITY, entityId: id!, after: auditShape(created) });
        return created;
      }),
    );
  } catch (err) {
    const code = pgErrorCode(err);
    if (code === PG.exclusionViolation) throw await collision(db, values);
    if (code === PG.foreignKeyViolation) throw productMissing();
    throw err;
  }
}

export async function updateRange(db: Db, actor: AuditActor, id: string, v: SerialRangeValues): Promise<SerialRange> {
  if (!isUuid(id)) throw rangeNotFound();
  if (!isUuid(v.productId)) throw productMissing();
  const values = toValues(v, v.productId);
  try {
    return await retryingConflicts(() =>
      db.transaction(async (tx) => {
        await repo.lockRange(tx, id);
        const before = await getRange(tx, id);
        if ((await repo.productsExist(tx, [v.productId])).size === 0) throw productMissing();
        await repo.updateRange(tx, id, values);
        const after = await getRange(tx, id);
        // Other units than the inspector released: an inspector releases the range again (decision 0052).
        const unitsChanged =
          before.startSerial !== after.startSerial || before.endSerial !== after.endSerial || before.productId !== after.productId;
        const withdrawn = unitsChanged && (await repo.withdrawRelease(tx, id));
        await recordAudit(tx, actor, {
          action: 'update',
          entity: RANGE_ENTITY,
          entityId: id,
          before: { ...auditShape(before), ...(withdrawn ? { released: true } : {}) },
          after: { ...auditShape(after), ...(withdrawn ? { released: false } : {}) },
        });
        return after;
      }),
    );
  } catch (err) {
    const code = pgErrorCode(err);
    if (code === PG.exclusionViolation) throw await collision(db, values, id);
    if (code === PG.foreignKeyViolation) throw productMissing();
    throw err;
  }
}

export async function deleteRange(db: Db, actor: AuditActor, id: string): Promise<void> {
  if (!isUuid(id)) throw rangeNotFound();
  await db.transaction(async (tx) => {
    await repo.lockRange(tx, id);
    const before = await getRange(tx, id);
    await repo.deleteRange(tx, id);
    await recordAudit(tx, actor, { action: 'delete', entity: RANGE_ENTITY, entityId: id, before: auditShape(before) });
  });
}

export async function rangeHistory(db: Db, id: string): Promise<HistoryEntry[]> {
  await getRange(db, id);
  return recordHistory(db, RANGE_ENTITY, id);
}

/** The widths the ranges' numbers have: the misread readings are made for these (a cache may keep them). */
export function serialWidths(db: Executor): Promise<number[]> {
  return repo.serialWidths(db);
}

/**
 * A serial that exists and reads like `typed` but for its separators (a space or none for the dash, an
 * underscore, a dot, an en dash…): "BF300 000002" or "BF300000002" → "BF300-000002". Null when none does.
 * Each way of splitting the typed letters and digits into a prefix and a number of 1–18 digits is tried;
 * then the misreadings of a worn nameplate, for the widths `widths()` gives (the caller may cache them).
 */
export async function findSerialSpeltLike(
  db: Executor,
  typed: string,
  widths: () => Promise<number[]> = () => repo.serialWidths(db),
): Promise<string | null> {
  const letters = normaliseSerial(typed).replace(/[^A-Z0-9]/g, '');
  if (letters.length === 0 || letters.length > SERIAL_MAX_LENGTH) return null;
  const readings: repo.SerialReading[] = [];
  for (let width = 1; width <= Math.min(SERIAL_MAX_WIDTH, letters.length); width++) {
    const digits = letters.slice(letters.length - width);
    if (!/^\d+$/.test(digits)) break;
    readings.push({ skeleton: letters.slice(0, letters.length - width), width, number: BigInt(digits), rank: 1 });
  }
  const [spelt] = await repo.findSerialsInReadings(db, 'separators', readings, 1);
  return spelt?.serial ?? findSerialMisread(db, letters, await widths());
}

/**
 * The one serial that exists and that `letters` (upper case, without separators) reads like when a worn
 * nameplate was misread (misreadings.ts): look-alike characters (BF3OO-000001 for BF300-000001), or a
 * digit missed or typed twice (BF300-00001). The likeliest rank that finds a unit decides; when it finds
 * more than one, none is offered rather than a guess.
 */
async function findSerialMisread(db: Executor, letters: string, widths: readonly number[]): Promise<string | null> {
  const found = await repo.findSerialsInReadings(db, 'read-alike', misreadings(letters, widths), 16);
  const best = found.filter((f) => f.rank === found[0]?.rank);
  return best.length === 1 ? best[0]!.serial : null;
}

/**
 * The range holding `serial` (any spelling: it is normalised) and its product, or null. An index lookup:
 * the last range of the serial's series that starts at or below its number, then its end is checked.
 * The public search uses this.
 */
export async function findRangeBySerial(db: Executor, serial: string): Promise<{ range: SerialRange; product: Product } | null> {
  const s = parseSerial(serial);
  if (!s) return null;
  const hit = await repo.findRangeHolding(db, s);
  return hit ? { range: repo.toRange(hit.range), product: toProduct(hit.product) } : null;
}
