/**
 * Step 2 of the public page: serials + address + agreement → for each serial a report issued (or held, or
 * not found); the search request rows and ONE email carrying every issued report, written in one
 * transaction through the outbox (docs/product.md §3 "Email"). The email names the reports; their bytes
 * are read when it is sent (report-mail.ts). The proof-of-work and the rate limits are
 * checked by the route before this runs.
 */
import { randomUUID } from 'node:crypto';
import type { ReportRequestResult, ReportRequestValues, SerialOutcome } from '../../../shared/contract/public';
import type { ReportLanguage } from '../../../shared/contract/reports';
import { AppError } from '../../../shared/errors';
import { translate } from '../../../shared/i18n/index';
import { productName } from '../../../shared/product-name';
import type { Db } from '../../db/client';
import type { NewSearchRequest } from '../../db/schema/index';
import { enqueueMail } from '../../mail/outbox';
import { clipUserAgent, insertSearchRequests } from './searches.repo';
import { readLookup, type VisitorMeta } from './lookup.service';
import { reportMail, type IssuedPdf } from './report-mail';
import type { OrderCertificate } from '../reports/issue';

/** What issuing a report answers (src/server/modules/reports/issue.ts); the release gate is inside it. */
export type IssueOutcome =
  | { status: 'issued'; report: { id: string; number: string; sha256: string; bytes: Uint8Array; filename: string } }
  | { status: 'held'; held?: ReadonlyArray<{ kind: string }> }
  | { status: 'no-data' }
  | { status: 'not-found' };

export type IssueReport = (db: Db, input: { serial: string; language: ReportLanguage; order?: OrderCertificate }) => Promise<IssueOutcome>;

export interface ReportRequestDeps {
  db: Db;
  issueReport: IssueReport;
  /** wakes the app's mail workers (`app.ctx.mail.kick`) */
  kick: () => void;
  /** the terms version currently in force (settings) */
  termsVersion: () => Promise<number>;
  /** whom a visitor asks when a report is not available (settings; '' = none set) */
  contact: () => Promise<string>;
  /** the order's certificate the address may receive for the serial (orders/buyer-certificate.ts), or null */
  orderCertificateFor?: (db: Db, serial: string, email: string) => Promise<OrderCertificate | null>;
}

export function pdfPath(reportId: string): string {
  return `/api/v1/public/reports/${reportId}.pdf`;
}

interface Decided {
  serial: string;
  outcome: SerialOutcome;
  product: string | null;
  /** the certificate the page links to: always the unit's own, without an order */
  report: { id: string; filename: string } | null;
  /** the certificate the email carries: the order's when the address is the buyer's, else the page's */
  mailed: { id: string; filename: string } | null;
  /** held only until its materials are traced (a heat missing or on hold): the visitor is told so */
  awaitingMaterials?: boolean;
}

export async function requestReports(deps: ReportRequestDeps, input: ReportRequestValues, meta: VisitorMeta): Promise<ReportRequestResult> {
  const { db } = deps;
  const termsVersion = await deps.termsVersion();
  // The page showed other terms than those in force now: the agreement would not be to these.
  if (input.termsVersion !== undefined && input.termsVersion !== termsVersion) {
    throw new AppError('failed-precondition', 'publicApi.termsChanged', {
      fields: [{ field: 'agreeToTerms', key: 'publicApi.termsChanged' }],
    });
  }
  const language = input.language;
  // The certificate's rendering: the visitor's language, or both side by side.
  const rendering: ReportLanguage = input.bilingual ? 'bilingual' : language;

  // One serial after another: issuing a report is CPU work, and a request holds at most 20.
  const decided: Decided[] = [];
  for (const serial of input.serials) {
    const found = await readLookup(db, serial);
    if (!found) {
      decided.push({ serial, outcome: 'not-found', product: null, report: null, mailed: null });
      continue;
    }
    const issued = await deps.issueReport(db, { serial, language: rendering });
    // The page shows whoever asks the same answer; only the mailbox of the buyer's address gets the order's
    // certificate, so that a stranger who types a buyer's address learns nothing from the page.
    const order = issued.status === 'issued' && deps.orderCertificateFor ? await deps.orderCertificateFor(db, serial, input.email) : null;
    const forBuyer = order ? await deps.issueReport(db, { serial, language: rendering, order }) : null;
    const page = issued.status === 'issued' ? { id: issued.report.id, filename: issued.report.filename } : null;
    decided.push(
      issued.status === 'issued'
        ? {
            serial,
            outcome: 'issued',
            product: productName(found.product, language),
            report: page,
            mailed: forBuyer?.status === 'issued' ? { id: forBuyer.report.id, filename: forBuyer.report.filename } : page,
          }
        : // Held by the release gate, or no test data yet: the visitor is told the same, and not which test; a
          // unit held only for its material records (its tests passed) is said to wait for them.
          {
            serial,
            outcome: issued.status === 'not-found' ? 'not-found' : 'held',
            product: issued.status === 'not-found' ? null : productName(found.product, language),
            report: null,
            mailed: null,
            awaitingMaterials: issued.status === 'held' && !!issued.held?.length && issued.held.every((h) => h.kind === 'untraced'),
          },
    );
  }

  const groupId = randomUUID();
  const issued = decided.filter((d) => d.report);
  const contact = decided.some((d) => d.outcome === 'held') ? await deps.contact() : '';
  const agreedAt = new Date();
  await db.transaction(async (tx) => {
    const pdfs: IssuedPdf[] = issued.map((d) => ({ serial: d.serial, reportId: d.mailed!.id, filename: d.mailed!.filename }));
    const unavailable = decided.filter((d) => d.outcome === 'held').map((d) => d.serial);
    // No email when nothing was issued: an address must not receive mail that carries no report.
    const outboxId = pdfs.length ? await enqueueMail(tx, reportMail(input.email, language, pdfs, unavailable, groupId, contact)) : null;
    const rows: NewSearchRequest[] = decided.map((d) => ({
      groupId,
      source: 'request',
      serial: d.serial,
      recipientEmail: input.email,
      language,
      termsAgreedAt: agreedAt,
      termsVersion,
      status: d.report ? 'queued' : d.outcome === 'held' ? 'held' : 'not-found',
      // What was sent: the order's certificate when the address is the buyer's.
      reportId: d.mailed?.id ?? null,
      outboxId: d.report ? outboxId : null,
      clientIp: meta.ip,
      userAgent: clipUserAgent(meta.userAgent),
    }));
    await insertSearchRequests(tx, rows);
  });
  if (issued.length) deps.kick();

  const t = (key: string) => translate(meta.language, key);
  return {
    requestId: groupId,
    message: t(issued.length ? 'publicApi.searchSuccess' : 'publicApi.nothingToSend'),
    emailQueued: issued.length > 0,
    contact,
    results: decided.map((d) => ({
      serial: d.serial,
      outcome: d.outcome,
      message: t(
        d.outcome === 'issued'
          ? 'publicApi.searchSuccess'
          : d.awaitingMaterials
            ? 'publicApi.awaitingMaterials'
            : d.outcome === 'held'
              ? 'publicApi.notAvailable'
              : 'errors.serialNotFound',
      ),
      product: d.product,
      reportId: d.report?.id ?? null,
      pdfPath: d.report ? pdfPath(d.report.id) : null,
    })),
  };
}
