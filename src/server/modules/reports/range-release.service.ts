/**
 * The release of a serial range by an authorised inspection representative (docs/decisions/0052): the
 * inspector reviews what the release gate says of the range's units and releases it, once. From then on
 * its units may be issued EN 10204 3.1 certificates, which name the inspector, the title and the time of
 * release. Only an account marked as an inspector may release (others: 403); a released range answers 409;
 * twenty requests at once store one release (the primary key) and one audit entry.
 */
import type { RangeGateSummary, RangeRelease, RangeReleaseView } from '../../../shared/contract/range-release';
import { AppError } from '../../../shared/errors';
import type { Db, Executor } from '../../db/client';
import type { RangeReleaseRow } from '../../db/schema/index';
import { isUuid } from '../../db/errors';
import type { SessionUser } from '../../lib/sessions';
import { recordAudit, type AuditActor } from '../audit/audit.writer';
import { gatesOf } from './gate-batch';
import * as repo from './range-release.repo';

import { findRange, RANGE_ENTITY, rangeNotFound, type RangeRow } from '../serials/serials.service';
import { keepStampForRelease } from '../staff/staff-stamp.service';

function toRelease(r: RangeReleaseRow): RangeRelease {
  return {
    rangeId: r.rangeId,
    source: r.source,
    inspectorName: r.inspectorName,
    inspectorTitle: r.inspectorTitle,
    releasedAt: r.releasedAt.toISOString(),
    gate: { unitCount: r.unitsNoData + r.unitsHeld + r.unitsPassed, passed: r.unitsPassed, held: r.unitsHeld, noData: r.unitsNoData },
  };
}

/** The gate over the range's units now: those with records are judged, the rest have no data. */
export async function gateSummary(db: Executor, range: RangeRow): Promise<RangeGateSummary> {
  const unitCount = Number(BigInt(range.endNo) - BigInt(range.startNo) + 1n);
  const gates = await gatesOf(db, repo.unitsWithRecords({ ...range, startNo: BigInt(range.startNo), endNo: BigInt(range.endNo) }));
  let passed = 0;
  let held = 0;
  for (const g of gates.values()) {
    if (g.productId !== range.productId) continue;
    if (g.status === 'pass') passed++;
    else if (g.status === 'held') held++;
  }
  return { unitCount, passed, held, noData: unitCount - passed - held };
}

async function rangeOf(db: Executor, id: string): Promise<RangeRow> {
  const range = isUuid(id) ? await findRange(db, id) : undefined;
  if (!range) throw rangeNotFound();
  return range;
}

export async function releaseView(db: Db, id: string): Promise<RangeReleaseView> {
  const range = await rangeOf(db, id);
  const release = await repo.findRelease(db, id);
  return { rangeId: id, release: release ? toRelease(release) : null, gate: await gateSummary(db, range) };
}

/**
 * Releases the range in the inspector's name. The gate's summary is stored with it (what the inspector
 * saw); units held by their tests stay held by them after the release.
 */
export async function releaseRange(db: Db, user: SessionUser, actor: AuditActor, id: string): Promise<RangeReleaseView> {
  if (!user.inspector) throw new AppError('permission-denied', 'serials.release.notInspector');
  const range = await rangeOf(db, id);
  const already = await repo.findRelease(db, id);
  if (already) throw released(already);
  const { row: stored, gate } = await storeRelease(db, actor, range, { id: user.id, name: user.name, title: user.inspectorTitle });
  // Another release was stored between the check and the insert: the same answer as a second request.
  if (!stored) throw released((await repo.findRelease(db, id))!);
  return { rangeId: id, release: toRelease(stored), gate };
}

/**
 * Stores the release of `range` in the inspector's name with the gate's summary now, audited; `row` is null
 * when the range was released already (by this or another request).
 */
export async function storeRelease(
  db: Db,
  actor: AuditActor,
  range: RangeRow,
  inspector: { id: string | null; name: string; title: string },
): Promise<{ row: RangeReleaseRow | null; gate: RangeGateSummary }> {
  const gate = await gateSummary(db, range);
  const row = await db.transaction(async (tx) => {
    const stampSha256 = inspector.id ? await keepStampForRelease(tx, inspector.id) : null;
    const stored = await repo.insertRelease(tx, {
      rangeId: range.id,
      releasedBy: inspector.id,
      stampSha256,
      inspectorName: inspector.name,
      inspectorTitle: inspector.title,
      unitsNoData: gate.noData,
      unitsHeld: gate.held,
      unitsPassed: gate.passed,
    });
    if (!stored) return null;
    await recordAudit(tx, actor, {
      action: 'release',
      entity: RANGE_ENTITY,
      entityId: range.id,
      before: { released: false },
      after: { released: true, inspector: inspector.name, inspectorTitle: inspector.title, stampSha256, ...gate },
    });
    return stored;
  });
  return { row, gate };
}

function released(r: RangeReleaseRow): AppError {
  return new AppError('failed-precondition', 'serials.release.already', {
    params: { name: r.inspectorName, at: r.releasedAt.toISOString() },
  });
}
