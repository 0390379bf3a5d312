/**
 * Verification of issued reports: by id (the QR code's link), by the short code, or by the SHA-256 of a
 * file the visitor dropped (hashed in the browser). Anything unknown or malformed is the same "not known"
 * 404, so that a probe learns nothing about which ids, codes or hashes exist.
 */
import {
  formatReportCode,
  normaliseReportCode,
  REPORT_ID_RE,
  SHA256_HEX_RE,
  type ReportLanguage,
  type ReportVerification,
} from '../../../shared/contract/reports';
import { AppError } from '../../../shared/errors';
import { parseSerial } from '../../../shared/serial';
import type { Executor } from '../../db/client';
import { reportFilename } from './issue';
import { dataVersion, readHeads } from './report-data';
import type { RecentPdfs, StoredPdf } from '../../lib/recent-pdfs';
import * as repo from './reports.repo';
import { hasArchivedRecords } from '../machine-data/record-archive';
import { verificationDetails } from './verification-details';

function unknown(): AppError {
  return new AppError('not-found', 'reports.verify.unknown');
}

/** How the report was asked for, and in which language its results are worded. */
export interface VerifyOptions {
  language: ReportLanguage;
  /** the app's recently used PDFs (`app.ctx.pdfs`), where the results are read from */
  pdfs?: RecentPdfs;
}

async function answer(db: Executor, f: repo.ReportFacts | null, fileChecked: boolean, o: VerifyOptions): Promise<ReportVerification> {
  if (!f) throw unknown();
  let details: ReportVerification['details'] = null;
  try {
    details = verificationDetails((await reportPdf(db, f.id, o.pdfs)).bytes, o.language);
  } catch {
    // The facts stand without the results (a row whose bytes went missing is for the logs, not the visitor).
  }
  const parsed = parseSerial(f.serial);
  const heads = parsed ? await readHeads(db, parsed) : null;
  // A unit whose records were all archived (record-archive.ts) has no newer data: its certificate stands.
  const archived = parsed && heads?.length === 0 ? await hasArchivedRecords(db, parsed) : false;
  const current = heads && !archived ? dataVersion(heads) : f.dataVersion;
  return {
    genuine: true,
    id: f.id,
    number: f.number,
    code: formatReportCode(f.code),
    serial: f.serial,
    productName: f.productName,
    documentType: f.documentType,
    language: f.language,
    issuedAt: f.issuedAt.toISOString(),
    sha256: f.sha256.toString('hex'),
    newerDataExists: current !== f.dataVersion,
    supersededBy: await supersededBy(db, f),
    pdfPath: `/api/v1/public/reports/${f.id}.pdf`,
    fileChecked,
    details,
  };
}

async function supersededBy(db: Executor, f: repo.ReportFacts): Promise<ReportVerification['supersededBy']> {
  if (!f.supersededBy) return null;
  const next = await repo.findHead(db, f.supersededBy);
  return next ? { id: next.id, number: next.number, issuedAt: next.issuedAt.toISOString(), reason: f.supersededReason ?? 'data' } : null;
}

export async function verifyById(db: Executor, id: string, o: VerifyOptions = { language: 'en' }): Promise<ReportVerification> {
  if (!REPORT_ID_RE.test(id)) throw unknown();
  return answer(db, await repo.findFactsBy(db, { id }), false, o);
}

export async function verifyByCode(db: Executor, code: string, o: VerifyOptions = { language: 'en' }): Promise<ReportVerification> {
  const c = normaliseReportCode(code);
  if (!c) throw unknown();
  return answer(db, await repo.findFactsBy(db, { code: c }), false, o);
}

export async function verifyByHash(db: Executor, sha256: string, o: VerifyOptions = { language: 'en' }): Promise<ReportVerification> {
  const h = sha256.toLowerCase();
  if (!SHA256_HEX_RE.test(h)) throw unknown();
  return answer(db, await repo.findFactsBy(db, { sha256: Buffer.from(h, 'hex') }), true, o);
}

/** The stored bytes, exactly as issued: from `pdfs` (the app's recently used PDFs) when there, and kept there. */
export async function reportPdf(db: Executor, id: string, pdfs?: RecentPdfs): Promise<StoredPdf> {
  if (!REPORT_ID_RE.test(id)) throw unknown();
  const hit = pdfs?.get(id);
  if (hit) return hit;
  const row = await repo.findBytes(db, id);
  if (!row) throw unknown();
  const pdf = { bytes: row.bytes, filename: reportFilename(row.serial), sha256: row.sha256.toString('hex') };
  pdfs?.remember(id, pdf);
  return pdf;
}
