/**
 * Queueing a message: call `enqueueMail` with the transaction that makes the change causing the message,
 * so that both are written or neither is. The worker (mail/worker.ts) sends it later.
 */
import type { Executor } from '../db/client';
import { mailOutbox, type OutboxAttachment } from '../db/schema/index';
import type { Language } from '../../shared/i18n/index';

export interface NewMail {
  /** what kind of message, e.g. 'password-reset', 'test-report' */
  kind: string;
  to: string;
  language: Language;
  subject: string;
  text: string;
  html?: string;
  attachments?: OutboxAttachment[];
  ref?: Record<string, string>;
  maxAttempts?: number;
}

export async function enqueueMail(tx: Executor, mail: NewMail): Promise<string> {
  const [row] = await tx
    .insert(mailOutbox)
    .values({
      kind: mail.kind,
      recipient: mail.to,
      language: mail.language,
      subject: mail.subject,
      textBody: mail.text,
      htmlBody: mail.html ?? null,
      attachments: mail.attachments ?? [],
      ref: mail.ref ?? {},
      ...(mail.maxAttempts ? { maxAttempts: mail.maxAttempts } : {}),
    })
    .returning({ id: mailOutbox.id });
  return row!.id;
}
