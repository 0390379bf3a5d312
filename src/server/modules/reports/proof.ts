/**
 * The facts a certificate's offline proof signs (shared/offline-proof.ts; docs/decisions/0063): number,
 * serial, date of issue, result, and the SHA-256 of the data file the PDF embeds. Not the PDF's own hash:
 * the code is drawn inside the PDF, which cannot hold a hash of itself.
 */
import { createHash } from 'node:crypto';
import type { ProofClaims } from '../../../shared/offline-proof';
import type { ReportModel } from './report-model';
import { reportJson } from './report-json';

/** The embedded data file's bytes, as render-pdf.ts attaches them. */
export function embeddedData(m: ReportModel): Buffer {
  return Buffer.from(JSON.stringify(reportJson(m)));
}

/** A test fails by the standard's verdict where it judged one, else by the bench's result. */
export function resultOf(m: Pick<ReportModel, 'tests'>): ProofClaims['r'] {
  const failed = m.tests.some((x) => (x.verdict === 'not-assessed' ? x.result === 'fail' : x.verdict === 'nonconforming'));
  return failed ? 'fail' : 'pass';
}

export function proofClaimsOf(m: ReportModel): ProofClaims {
  return {
    n: m.number,
    s: m.serial,
    d: m.issuedAt.toISOString().slice(0, 10),
    r: resultOf(m),
    h: createHash('sha256').update(embeddedData(m)).digest('base64url'),
  };
}
