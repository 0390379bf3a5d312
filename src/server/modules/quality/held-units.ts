/**
 * The quality engineer's worklist: every unit the release gate holds now, requested or not, with what holds
 * it; and one unit's answer from the same gate, for the top of its page. The gate is the one certificates
 * are issued by (report-data.ts, in bulk gate-batch.ts), for the certificate type in Settings and with the
 * release rule, so this list and a visitor's request never disagree.
 */
import {
  holdKindOf,
  type HeldFor,
  type HeldRequest,
  type HeldRequestsQuery,
  type HeldUnit,
  type HeldUnitsQuery,
  type UnitRelease,
} from '../../../shared/contract/quality';
import { pageWindow } from '../../../shared/contract/common';
import { AppError } from '../../../shared/errors';
import { formatSerial, parseSerial } from '../../../shared/serial';
import type { Executor } from '../../db/client';
import { gatesOf, listedUnits } from '../reports/gate-batch';
import { gateOf, readUnit, type HoldReason } from '../reports/report-data';
import { rangeReleased, withReleaseRule } from '../reports/release-rule';
import { getSettings } from '../settings/settings.service';
import * as repo from './quality.repo';
import { rangeOf } from './quality.service';

/** A hold as the contract says it (dates as ISO text; the parts and heats of an untraced one). */
export function heldForOf(h: HoldReason): HeldFor {
  if (h.kind === 'failed')
    return { testType: h.testType, kind: h.kind, testedAt: h.testedAt.toISOString(), bench: h.bench, reasons: h.reasons };
  if (h.kind === 'untraced') return { testType: null, kind: h.kind, part: h.part, heat: h.heat, testedAt: null, bench: null, reasons: [] };
  if (h.kind === 'closure-one-side') return { testType: h.testType, kind: h.kind, side: h.side, testedAt: null, bench: null, reasons: [] };
  return { testType: h.testType, kind: h.kind, testedAt: null, bench: null, reasons: [] };
}

/**
 * Held report requests with what holds each unit now, by the release gate itself (the unit's standard and
 * the product's judgement), so the panel never calls "passed" a unit the gate still holds.
 */
export async function heldRequests(db: Executor, q: HeldRequestsQuery): Promise<{ items: HeldRequest[]; total: number }> {
  const { limit, offset } = pageWindow(q);
  const { rows, total } = await repo.heldRequests(db, rangeOf(q), limit, offset);
  const units = new Map<string, Awaited<ReturnType<typeof readUnit>>>();
  for (const r of rows) if (!units.has(r.serial)) units.set(r.serial, await readUnit(db, r.serial));
  // A visitor's request is for the certificate type in Settings: a 3.1 waits for the range's release too.
  const { documentType } = await getSettings(db);
  const released = new Set<string>();
  for (const u of units.values()) if (u && !released.has(u.range.id) && (await rangeReleased(db, u.range.id))) released.add(u.range.id);
  return {
    total,
    items: rows.map((r) => {
      const unit = units.get(r.serial) ?? null;
      const g = unit ? withReleaseRule(gateOf(unit), documentType, released.has(unit.range.id)) : null;
      const last = unit?.heads.at(-1);
      return {
        id: r.id,
        serial: r.serial,
        requestedAt: new Date(r.created_at).toISOString(),
        language: r.language,
        reason: !g || g.status === 'no-data' ? 'noTests' : g.status === 'held' ? 'stillHeld' : 'releasable',
        heldFor: (g?.held ?? []).map(heldForOf),
        latestTestedAt: last ? last.testedAt.toISOString() : null,
      };
    }),
  };
}

/** Every held unit of the query, newest test first (the CSV takes them all, the screen a page). */
export async function allHeldUnits(db: Executor, q: HeldUnitsQuery): Promise<HeldUnit[]> {
  const tested = await repo.testedUnits(db, rangeOf(q), { productId: q.productId, machineId: q.machineId });
  if (tested.length === 0) return [];
  const { documentType } = await getSettings(db);
  const gates = await gatesOf(db, listedUnits(tested), { documentType, releaseRule: true });
  const held = tested.flatMap((u) => {
    const g = gates.get(u.key);
    if (!g || g.status !== 'held') return [];
    const heldFor = g.held.map(heldForOf);
    if (q.reason && !heldFor.some((h) => holdKindOf(h) === q.reason)) return [];
    return [{ u, productId: g.productId, heldFor }];
  });
  const names = await repo.productNames(db, [...new Set(held.flatMap((h) => (h.productId ? [h.productId] : [])))]);
  return held.map(({ u, productId, heldFor }) => ({
    serial: u.key,
    productId,
    productName: productId ? (names.get(productId)?.name ?? null) : null,
    productNameZh: productId ? (names.get(productId)?.nameZh ?? null) : null,
    latestTestedAt: u.latest.toISOString(),
    heldFor,
  }));
}

export async function heldUnits(db: Executor, q: HeldUnitsQuery): Promise<{ items: HeldUnit[]; total: number }> {
  const all = await allHeldUnits(db, q);
  const { limit, offset } = pageWindow(q);
  return { items: all.slice(offset, offset + limit), total: all.length };
}

/** One unit by the same gate; a serial that does not parse is a field error, one no range holds has no tests. */
export async function unitRelease(db: Executor, serialText: string): Promise<UnitRelease> {
  const parsed = parseSerial(serialText);
  if (!parsed) {
    throw new AppError('invalid-argument', 'serials.validation.serial', {
      fields: [{ field: 'serial', key: 'serials.validation.serial' }],
    });
  }
  const serial = formatSerial(parsed);
  const unit = await readUnit(db, serial);
  if (!unit) return { serial, status: 'noTests', heldFor: [] };
  const { documentType } = await getSettings(db);
  const g = withReleaseRule(gateOf(unit), documentType, await rangeReleased(db, unit.range.id));
  if (g.status === 'no-data') return { serial, status: 'noTests', heldFor: [] };
  return { serial, status: g.status === 'held' ? 'held' : 'releasable', heldFor: g.held.map(heldForOf) };
}

/** A hold in the CSV, in the contract's own words: "nonconforming shell (leakage-above-allowed)", "untraced body heat H123". */
export function holdText(h: HeldFor): string {
  const kind = holdKindOf(h);
  if (h.kind === 'unreleased') return kind;
  if (h.kind === 'untraced') return `${kind} ${h.part ?? ''}${h.heat ? ` heat ${h.heat}` : ''}`.trim();
  if (h.kind === 'closure-one-side') return `${kind} ${h.testType ?? ''} side ${h.side ?? ''}`;
  return `${kind} ${h.testType ?? ''}${h.reasons.length ? ` (${h.reasons.join(', ')})` : ''}`;
}

/** One held unit as a CSV row: serial, product, newest test, holds. */
export function csvRowOf(u: HeldUnit): (string | null)[] {
  return [u.serial, u.productName, u.latestTestedAt, u.heldFor.map(holdText).join('; ')];
}
