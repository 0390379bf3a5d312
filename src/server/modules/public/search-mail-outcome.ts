/**
 * A search request's status follows the email that carries its report: queued → sent, or failed after the
 * outbox's last attempt; attempts, last error and sent at as the outbox recorded them. Called by the mail
 * worker inside the transaction that records the outcome (src/server/mail/outcomes.ts).
 */
import type { MailHub } from '../../mail/hub';
import type { MailOutcomeHandler } from '../../mail/outcomes';
import { followMail } from './searches.repo';

export const REPORT_MAIL_KIND = 'test-report';

export const followReportMail: MailOutcomeHandler = async (row, outcome, tx) => {
  await followMail(tx, row.id, {
    // A retry keeps the request queued: it is still on its way.
    status: outcome.status === 'sent' ? 'sent' : outcome.status === 'failed' ? 'failed' : 'queued',
    attempts: row.attempts,
    lastError: row.lastError,
    sentAt: row.sentAt,
  });
};

/** Registers the handler; returns the function that removes it (for the app's onClose). */
export function registerReportMailOutcome(mail: MailHub): () => void {
  return mail.onOutcome(REPORT_MAIL_KIND, followReportMail);
}
