/** The read side of test records: list, one record with its samples, a unit's history, the newest arrival. */
import type { TestRecordDetail, TestRecordListQuery, UnitHistory } from '../../../shared/contract/machine-data';
import { AppError } from '../../../shared/errors';
import { formatSerial, parseSerial } from '../../../shared/serial';
import type { Executor } from '../../db/client';
import { findRangeHolding } from '../serials/serials.service';
import * as repo from './machine-data.repo';
import { listRecords } from './machine-data.list';
import { decodeSamples } from './record-codec';

function notFound(): AppError {
  return new AppError('not-found', 'machineData.recordNotFound');
}

export function listTestRecords(db: Executor, q: TestRecordListQuery) {
  return listRecords(db, q);
}

/** Ids are positive bigints; anything else is "not found", not a cast error. */
function recordIdNumber(id: string): number | null {
  if (!/^[1-9]\d{0,15}$/.test(id)) return null;
  const n = Number(id);
  return Number.isSafeInteger(n) ? n : null;
}

export async function getTestRecord(db: Executor, id: string): Promise<TestRecordDetail> {
  const n = recordIdNumber(id);
  const found = n === null ? undefined : await repo.findRecord(db, n);
  if (!found) throw notFound();
  const { samples, ...row } = found.row;
  return { ...repo.toTestRecord(row), samples: decodeSamples(samples), range: found.range };
}

/** Every test of one unit, newest first, with the range holding its serial and that range's product. */
export async function unitHistory(db: Executor, serialText: string): Promise<UnitHistory> {
  const s = parseSerial(serialText);
  if (!s) {
    throw new AppError('invalid-argument', 'serials.validation.serial', {
      fields: [{ field: 'serial', key: 'serials.validation.serial' }],
    });
  }
  const [records, holding] = await Promise.all([repo.recordsOfUnit(db, s), findRangeHolding(db, s)]);
  return {
    serial: formatSerial(s),
    product: holding ? { id: holding.product.id, name: holding.product.name, nameZh: holding.product.nameZh ?? '' } : null,
    range: holding ? repo.rangeOf(holding.range) : null,
    records,
  };
}

/** The dashboard's "Last test report data received date": one index step, null while nothing arrived. */
export async function lastReceivedAt(db: Executor): Promise<Date | null> {
  return repo.lastReceivedAt(db);
}
