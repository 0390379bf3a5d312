/**
 * The email that carries a request's reports: localised subject and body, one PDF per issued report
 * attached as `test-report-<serial>.pdf`. The only thing in it that a visitor typed is the serials
 * (normalised to the serial grammar), so the form cannot be used to send someone else a message.
 */
import type { Language } from '../../../shared/i18n/index';
import { translate } from '../../../shared/i18n/index';
import type { OutboxAttachment } from '../../db/schema/index';
import type { NewMail } from '../../mail/outbox';
import { renderEmail } from '../../mail/layout';
import { REPORT_MAIL_KIND } from './search-mail-outcome';

export interface IssuedPdf {
  serial: string;
  bytes: Uint8Array;
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
    one ? t('bodyOne', { serial: issued[0]!.serial }) : `${t('bodyMany')} ${issued.map((r) => r.serial).join(', ')}`,
    ...(unavailable.length ? [`${t('notAvailable')} ${unavailable.join(', ')}`] : []),
    ...(unavailable.length && contact ? [t('contact', { contact })] : []),
    t('verify'),
  ];
  const { html, text } = renderEmail({ language, title: subject, paragraphs, footer: t('requested') });
  const attachments: OutboxAttachment[] = issued.map((r) => ({
    filename: r.filename,
    contentType: 'application/pdf',
    contentBase64: Buffer.from(r.bytes).toString('base64'),
  }));
  return { kind: REPORT_MAIL_KIND, to, language, subject, text, html, attachments, ref: { searchRequestGroupId: groupId } };
}
