/**
 * The email that carries a request's reports: localised subject and body, one PDF per issued report
 * attached as `test-report-<serial>.pdf`. The only thing in it that a visitor typed is the serials
 * (normalised to the serial grammar), so the form cannot be used to send someone else a message.
 *
 * The outbox row names each report by its id (`ref`), not its bytes: a stored report never changes, and
 * twenty PDFs written again as base64 JSON made the row 2–3 MB, a 200–300 ms statement on the embedded
 * database and more for the worker that claims it (docs/decisions/0020). The composer below reads the PDFs
 * when the message is sent, one after another.
 */
import type { Language } from '../../../shared/i18n/index';
import { translate } from '../../../shared/i18n/index';
import { enumerate } from '../../../shared/i18n/punctuation';
import type { Db } from '../../db/client';
import type { OutboxAttachment, OutboxRow } from '../../db/schema/index';
import type { ComposedMail } from '../../mail/composers';
import type { MailHub } from '../../mail/hub';
import type { NewMail } from '../../mail/outbox';
import { renderEmail } from '../../mail/layout';
import { AppError } from '../../../shared/errors';
import { reportPdf } from '../reports/reports.service';
import type { RecentPdfs } from '../../lib/recent-pdfs';
import { REPORT_MAIL_KIND } from './search-mail-outcome';

export interface IssuedPdf {
  serial: string;
  /** the stored report (reports.id) */
  reportId: string;
  /** `test-report-<serial>.pdf`, as the reports module names it */
  filename: string;
}

/** `contact`: whom the visitor asks about serials that could not be attached (settings; '' = none set). */
export function reportMail(
  to: string,
  language: Language,
  issued: IssuedPdf[],
  unavailable: string[],
  groupId: string,
  contact = '',
): NewMail {
  const t = (key: string, params?: Record<string, unknown>) => translate(language, `publicApi.email.${key}`, params);
  const one = issued.length === 1;
  const subject = one ? t('subjectOne', { serial: issued[0]!.serial }) : t('subjectMany', { count: issued.length });
  const paragraphs = [
    t('greeting'),
    one
      ? t('bodyOne', { serial: issued[0]!.serial })
      : `${t('bodyMany')} ${enumerate(
          language,
          issued.map((r) => r.serial),
        )}`,
    ...(unavailable.length ? [`${t('notAvailable')} ${enumerate(language, unavailable)}`] : []),
    ...(unavailable.length && contact ? [t('contact', { contact })] : []),
    t('verify'),
  ];
  const { html, text } = renderEmail({ language, title: subject, paragraphs, footer: t('requested') });
  const attachments: OutboxAttachment[] = issued.map((r) => ({ filename: r.filename, contentType: 'application/pdf', ref: r.reportId }));
  return { kind: REPORT_MAIL_KIND, to, language, subject, text, html, attachments, ref: { searchRequestGroupId: groupId } };
}

/**
 * The report email as sent: each attachment named by a report id gets that report's bytes, from the
 * recently used PDFs when there (the request that queued the email has just issued them) or read from the
 * database, one at a time. A report no longer stored fails the message for good (EMESSAGE, retry-policy.ts).
 */
export async function composeReportMail(db: Db, row: OutboxRow, pdfs?: RecentPdfs): Promise<ComposedMail> {
  const attachments: OutboxAttachment[] = [];
  for (const a of row.attachments) {
    if (a.ref === undefined) {
      attachments.push(a);
      continue;
    }
    const pdf = await reportPdf(db, a.ref, pdfs).catch((err: unknown) => {
      if (err instanceof AppError && err.code === 'not-found') return null;
      throw err; // the database, say: tried again later
    });
    if (!pdf) throw Object.assign(new Error(`The report of ${a.filename} is no longer stored`), { code: 'EMESSAGE' });
    attachments.push({ filename: a.filename, contentType: a.contentType, contentBase64: pdf.bytes.toString('base64') });
  }
  return { text: row.textBody, ...(row.htmlBody ? { html: row.htmlBody } : {}), attachments };
}

/** Registers the composer of report emails; returns the function that removes it (for the app's onClose). */
export function registerReportMailComposer(mail: MailHub, pdfs: RecentPdfs): () => void {
  return mail.onCompose(REPORT_MAIL_KIND, (db, row) => composeReportMail(db, row, pdfs));
}
