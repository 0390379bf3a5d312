/**
 * The release rule of the gate (docs/decisions/0052-inspector-release.md): an EN 10204 3.1 inspection
 * certificate is validated by the manufacturer's authorised inspection representative, so a unit is issued
 * one only once an authorised inspector has released its serial range; so is a 3.2, which adds the purchaser's
 * witness. A 2.2 test report needs no release.
 * Kept apart from the test rules of gate() so that each rule reads on its own.
 */
import { isInspectionCertificate, type DocumentType } from '../../../shared/contract/settings';
import type { Executor } from '../../db/client';
import { findRelease } from './range-release.repo';
import type { GateResult, HoldReason } from './report-data';

export const UNRELEASED: HoldReason = { testType: null, kind: 'unreleased' };

/** The gate's answer for a certificate of `documentType`, given whether the unit's range is released. */
export function withReleaseRule(g: GateResult, documentType: DocumentType, released: boolean): GateResult {
  if (g.status === 'no-data' || released || !isInspectionCertificate(documentType)) return g;
  return { status: 'held', held: [...g.held, UNRELEASED] };
}

/** Whether an authorised inspector (or, before inspectors were kept, the migration) released the range. */
export async function rangeReleased(db: Executor, rangeId: string): Promise<boolean> {
  return (await findRelease(db, rangeId)) !== null;
}

/** The certificate type an order's EN 10204 type asks for (a 3.2 also needs its delivery's witness). */
export function orderDocumentType(orderType: '2.2' | '3.1' | '3.2' | undefined): DocumentType {
  return orderType === '2.2' ? 'test-report-2.2' : orderType === '3.2' ? 'inspection-certificate-3.2' : 'inspection-certificate-3.1';
}
