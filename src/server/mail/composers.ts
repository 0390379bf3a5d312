/**
 * Messages whose content is only made when they are sent. A message that carries a secret (a password
 * reset link) is queued with a stand-in body; its composer makes the secret and the real body at the
 * moment of sending, so that the outbox row, a backup or a log never holds anything usable. A message
 * whose attachments are stored elsewhere (a report email's PDFs) names them by `ref`, and its composer
 * reads them. One composer per kind, registered on the app's mail hub (hub.ts) by the module that queues
 * the kind (like outcomes.ts).
 */
import type { Db } from '../db/client';
import type { OutboxAttachment, OutboxRow } from '../db/schema/index';

export interface ComposedMail {
  subject?: string;
  text: string;
  html?: string;
  /** the attachments as sent, bytes filled in (an outbox row may name them by `ref` only); omitted: the row's */
  attachments?: OutboxAttachment[];
}

export interface ComposeOptions {
  /**
   * True when the transport keeps what it sends on this server's disk (the .eml fallback without
   * SMTP_URL): a composer must then leave every secret out.
   */
  keepsCopy: boolean;
}

/** Returns the content to send, or null when the message is no longer wanted (it then ends as failed). */
export type MailComposer = (db: Db, row: OutboxRow, options: ComposeOptions) => Promise<ComposedMail | null>;
