/**
 * Issuing a test report: the release gate, reuse of the stored report, numbering (one number per certificate,
 * shared by its renderings in each language: docs/decisions/0055), rendering and signing, storing. The same request issued many times at once (or on several instances) stores one report: an
 * in-process single flight saves the duplicate work, and a transaction-scoped advisory lock on the reuse
 * key plus the unique reuse index make it hold across instances. Rendering runs between two short
 * transactions, in the app's report pool when the caller passes one (render-job.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { REPORT_CODE_ALPHABET, REPORT_CODE_LENGTH, type ReportLanguage } from '../../../shared/contract/reports';
import type { Db, Executor } from '../../db/client';
import type { ReportRow } from '../../db/schema/index';
import { PG, pgErrorCode } from '../../db/errors';
import { getSettingsWithRevision, signingMaterial } from '../settings/settings.service';
import { signProof } from '../settings/verification-keys.service';
import { proofClaimsOf } from './proof';
import { certificateName } from '../../lib/signing/certificate';
import { renderAndSign, type RenderReport } from './render-job';
import { reportGeneration } from '../../lib/metrics';
import { dataVersion, gateOf, type HoldReason, readUnit } from './report-data';
import { withReleaseRule } from './release-rule';
import { findRelease } from './range-release.repo';
import type { ReportOrder } from './report-model';
import { buildModel } from './report-build';
import { isInspectionCertificate, type DocumentType } from '../../../shared/contract/settings';
import * as repo from './reports.repo';
import { raiseCertificateEvents } from '../webhooks/certificate-events';
import { docKey, t } from './format';
import { formatSerial, parseSerial, type ParsedSerial } from '../../../shared/serial';
import { hasArchivedRecords } from '../machine-data/record-archive';
import { originOf } from '../../../shared/identification';
import type { RecentPdfs } from '../../lib/recent-pdfs';

/** Bumped when the layout changes in a way that should give units a new report rather than the stored one. */
const LAYOUT_VERSION = 2;

export interface IssuedReport {
  id: string;
  number: string;
  /** hex */
  sha256: string;
  bytes: Buffer;
  filename: string;
  /** short verification code, raw (10 characters) */
  code: string;
  serial: string;
  language: ReportLanguage;
  issuedAt: Date;
  /** true when the stored report was served again */
  reused: boolean;
  /** findings for staff, e.g. { testType: 'shell', code: 'short-hold' } */
  flags: Array<{ testType: string; code: string }>;
}

export type IssueResult =
  { status: 'issued'; report: IssuedReport } | { status: 'held'; held: HoldReason[] } | { status: 'no-data' } | { status: 'not-found' };

export interface IssueInput {
  serial: string;
  language: ReportLanguage;
  /** origin of the verification link: the app's PUBLIC_BASE_URL (`app.ctx.config.publicBaseUrl`) */
  publicBaseUrl: string;
  /**
   * how the PDF is rendered and signed: through the app's report pool (a reservation of
   * `app.ctx.reportPool`, see render-job.ts); without it, in this thread (scripts and tests)
   */
  render?: RenderReport;
  /** the app's recently used PDFs (`app.ctx.pdfs`), read and filled; without it none are kept (scripts and tests) */
  pdfs?: RecentPdfs;
  /**
   * the delivery unit whose order the certificate names, and the document type the order asks for; without
   * it, the unit's certificate without an order (the settings' document type)
   */
  order?: OrderCertificate;
}

export interface OrderCertificate {
  deliveryUnitId: number;
  documentType: DocumentType;
  printed: ReportOrder;
}

/** `test-report-<serial>.pdf`, with the characters a file name cannot hold replaced. */
export function reportFilename(serial: string): string {
  return `test-report-${serial.replace(/[^A-Za-z0-9._-]/g, '-')}.pdf`;
}

function toIssued(row: ReportRow, reused: boolean): IssuedReport {
  return {
    id: row.id,
    number: row.number,
    sha256: row.sha256.toString('hex'),
    bytes: row.bytes,
    filename: reportFilename(row.serial),
    code: row.code,
    serial: row.serial,
    language: row.language,
    issuedAt: row.issuedAt,
    reused,
    flags: row.flags,
  };
}

function newCode(): string {
  const bytes = randomBytes(REPORT_CODE_LENGTH);
  let out = '';
  for (let i = 0; i < REPORT_CODE_LENGTH; i++) out += REPORT_CODE_ALPHABET[bytes[i]! & 31];
  return out;
}

const inflight = new Map<string, Promise<IssueResult>>();

/** What a report's bytes are made of (the reuse key): both the first lookup and the issue path derive it here. */
function sourceVersionOf(v: {
  dataVersion: string;
  productId: string;
  productUpdatedAt: Date;
  rangeId: string;
  rangeUpdatedAt: Date;
  revision: number;
  fingerprint: string;
  baseUrl: string;
  order: OrderCertificate | undefined;
  traceVersion: string | null;
}): string {
  const inputs: unknown[] = [
    LAYOUT_VERSION,
    v.dataVersion,
    v.productId,
    v.productUpdatedAt,
    v.rangeId,
    v.rangeUpdatedAt,
    v.revision,
    v.fingerprint,
    v.baseUrl,
  ];
  // Appended only for an order's certificate, so that the keys of certificates without an order stay those
  // already stored. The unit's id keeps two deliveries' certificates of one serial apart.
  if (v.order) inputs.push(v.order.deliveryUnitId, v.order.documentType, v.order.printed);
  // Likewise the unit's parts and heats, only for a unit that traces any (migration 0032 unit_trace_version).
  if (v.traceVersion) inputs.push('trace', v.traceVersion);
  return createHash('sha256').update(JSON.stringify(inputs)).digest('hex');
}

const baseUrlOf = (input: IssueInput) => originOf(input.publicBaseUrl);

/**
 * The stored report of exactly the unit's current data, product, range, settings and certificate, found
 * first and cheaply (docs/decisions/0025-kept-quality-outcomes.md): one statement reads every input of the
 * reuse key, and the unique reuse index finds the report. A stored report of the same inputs passed the
 * release gate with them, so the gate need not run again. Null: not stored (or no such unit); issueReport's
 * full path decides.
 */
export async function findStoredReport(db: Executor, input: IssueInput): Promise<IssuedReport | null> {
  const parsed = parseSerial(input.serial);
  if (!parsed) return null;
  const serial = formatSerial(parsed);
  const inputs = await repo.reuseInputs(db, parsed, serial, input.language);
  if (!inputs || !inputs.fingerprint) return null;
  const sourceVersion = sourceVersionOf({
    dataVersion: inputs.dataVersion,
    productId: inputs.productId,
    productUpdatedAt: inputs.productUpdatedAt,
    rangeId: inputs.rangeId,
    rangeUpdatedAt: inputs.rangeUpdatedAt,
    revision: inputs.revision,
    fingerprint: inputs.fingerprint,
    baseUrl: baseUrlOf(input),
    order: input.order,
    traceVersion: inputs.traceVersion,
  });
  // The unit's newest report in the language is usually the one; otherwise the reuse index decides.
  const facts =
    inputs.newest?.sourceVersion === sourceVersion
      ? inputs.newest
      : await repo
          .findReusableFacts(db, { serial, language: input.language, sourceVersion })
          .then((f) => (f ? { ...f, sha256: f.sha256.toString('hex') } : null));
  if (!facts) return null;
  // The bytes from the recently used PDFs when there (the serving path keeps them), else read once.
  let bytes = input.pdfs?.get(facts.id)?.bytes;
  if (!bytes) {
    const stored = await repo.findBytes(db, facts.id);
    if (!stored) return null;
    bytes = stored.bytes;
    input.pdfs?.remember(facts.id, { bytes, filename: reportFilename(serial), sha256: facts.sha256 });
  }
  return {
    id: facts.id,
    number: facts.number,
    sha256: facts.sha256,
    bytes,
    filename: reportFilename(serial),
    code: facts.code,
    serial,
    language: input.language,
    issuedAt: facts.issuedAt,
    reused: true,
    flags: facts.flags,
  };
}

/** The newest stored certificate of a unit whose records were moved to the archive; null when none was kept. */
async function archivedUnitCertificate(
  db: Executor,
  parsed: ParsedSerial,
  serial: string,
  language: ReportLanguage,
): Promise<IssuedReport | null> {
  if (!(await hasArchivedRecords(db, parsed))) return null;
  const row = await repo.newestStandalone(db, serial, language);
  return row ? toIssued(row, true) : null;
}

export async function issueReport(db: Db, input: IssueInput): Promise<IssueResult> {
  const stored = await findStoredReport(db, input);
  if (stored) return { status: 'issued', report: stored };
  const unit = await readUnit(db, input.serial);
  if (!unit) return { status: 'not-found' };
  const g = gateOf(unit, input.order?.documentType);
  if (g.status === 'no-data') {
    // Its records archived (record-archive.ts): the certificate issued while they were kept answers for it.
    const kept = input.order ? null : await archivedUnitCertificate(db, unit.parsed, unit.serial, input.language);
    return kept ? { status: 'issued', report: kept } : { status: 'no-data' };
  }
  // A 3.1 certificate needs the range released by an authorised inspector (release-rule.ts).
  const release = await findRelease(db, unit.range.id);
  const wanted = input.order?.documentType ?? (await getSettingsWithRevision(db)).settings.documentType;
  const released = withReleaseRule(g, wanted, release !== null);
  if (released.status === 'held') return { status: 'held', held: released.held };

  const baseUrl = baseUrlOf(input);
  // The signing material first: on first use it makes the certificate and moves the settings revision, which
  // must be read after that, or the first report after a start would be issued twice.
  const material = await signingMaterial(db);
  const { settings, revision } = await getSettingsWithRevision(db);
  const dataV = dataVersion(unit.heads);
  const sourceVersion = sourceVersionOf({
    dataVersion: dataV,
    productId: unit.product.id,
    productUpdatedAt: unit.product.updatedAt,
    rangeId: unit.range.id,
    rangeUpdatedAt: unit.range.updatedAt,
    revision,
    fingerprint: material.fingerprint,
    baseUrl,
    order: input.order,
    traceVersion: unit.trace.version,
  });
  const key = { serial: unit.serial, language: input.language, sourceVersion };
  const again = await repo.findReusable(db, key);
  if (again) return { status: 'issued', report: toIssued(again, true) };

  const flightKey = `${key.serial}\n${key.language}\n${key.sourceVersion}`;
  const certificateKey = `${key.serial}\n${key.sourceVersion}`;
  const running = inflight.get(flightKey);
  if (running) return running;
  const work = (async (): Promise<IssueResult> => {
    try {
      // Numbered and modelled in one short transaction, rendered outside any (a transaction held while a
      // worker renders would, on PGlite's one connection, hold every other query), stored in a second.
      const prepared = await db.transaction(async (tx) => {
        // The certificate's lock, not the rendering's: its renderings in either language share one number.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${certificateKey}, 7347005))`);
        const again = await repo.findReusable(tx, key);
        if (again) return { reused: again };
        const now = new Date(Math.floor(Date.now() / 1000) * 1000);
        const { number, issuedAt } = await repo.certificateNumber(tx, { serial: unit.serial, sourceVersion }, now);
        let code = newCode();
        while (await repo.codeTaken(tx, code)) code = newCode();
        const id = randomBytes(16).toString('base64url');
        const { model, flags } = await buildModel(tx, unit, {
          id,
          code,
          number,
          language: input.language,
          issuedAt,
          baseUrl,
          settings: input.order ? { ...settings, documentType: input.order.documentType } : settings,
          certificateFingerprint: material.fingerprint,
          signerName: certificateName(material.certPem),
          order: input.order?.printed ?? null,
          release,
        });
        return { reused: null, id, code, number, issuedAt, model, flags };
      });
      if (prepared.reused) return { status: 'issued', report: toIssued(prepared.reused, true) };
      const { id, code, number, issuedAt, flags } = prepared;
      // Signed outside the transaction: the first proof makes the key (on PGlite's one connection a query
      // beside an open transaction would wait for it).
      const model = { ...prepared.model, proof: await signProof(db, proofClaimsOf(prepared.model)) };
      const documentType = input.order?.documentType ?? settings.documentType;
      const reason = t(input.language, 'signatureReason', { title: t(input.language, `title.${docKey(documentType)}`), number });
      const endTimer = reportGeneration.startTimer({ language: input.language });
      const bytes = await (input.render ?? renderAndSign)({
        model,
        signature: {
          name: isInspectionCertificate(documentType) && model.inspectorName ? model.inspectorName : model.signerName,
          reason,
          location: settings.companyAddress.split('\n')[0] ?? '',
          contactInfo: baseUrl,
          signingTime: issuedAt,
        },
        material,
      });
      endTimer();
      const row: ReportRow = {
        id,
        code,
        number,
        serial: unit.serial,
        productId: unit.product.id,
        productName: unit.product.name,
        documentType,
        language: input.language,
        dataVersion: dataV,
        sourceVersion,
        sha256: createHash('sha256').update(bytes).digest(),
        bytes,
        size: bytes.length,
        issuedAt,
        certificateFingerprint: material.fingerprint,
        flags,
        supersededBy: null,
        supersededReason: null,
        deliveryUnitId: input.order?.deliveryUnitId ?? null,
      };
      const issued = await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${flightKey}, 7347005))`);
        // Another instance stored the same report while this one rendered: serve that one (the number is the
        // certificate's, docs/decisions/0055, so it is the winner's too).
        const winner = await repo.findReusable(tx, key);
        if (winner) return { status: 'issued', report: toIssued(winner, true) } as const;
        await repo.insertReport(tx, row);
        const superseded = await repo.supersedeEarlier(tx, row);
        // An order's certificate tells the buyer's systems, in this transaction (docs/decisions/0066-webhooks.md).
        await raiseCertificateEvents(tx, { report: row, deliveryUnitId: row.deliveryUnitId, superseded });
        return { status: 'issued', report: toIssued(row, false) } as const;
      });
      // The email that carries it reads it within seconds (public/report-mail.ts), as do the preview and the download.
      if (!issued.report.reused) input.pdfs?.remember(id, { bytes, filename: issued.report.filename, sha256: issued.report.sha256 });
      return issued;
    } catch (err) {
      // Another instance stored the same report between our check and insert: serve that one.
      if (pgErrorCode(err) === PG.uniqueViolation) {
        const winner = await repo.findReusable(db, key);
        if (winner) return { status: 'issued', report: toIssued(winner, true) };
      }
      throw err;
    } finally {
      inflight.delete(flightKey);
    }
  })();
  inflight.set(flightKey, work);
  return work;
}
