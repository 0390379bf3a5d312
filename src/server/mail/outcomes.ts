/**
 * Lets the module that queued a message follow what became of it (a search request turning sent or
 * failed, a staff "resend"). One handler per kind, called by the worker inside the transaction that
 * records the outcome, so the owner's row and the outbox row never disagree. An app's modules register
 * theirs on the app's mail hub (`app.ctx.mail`, hub.ts).
 */
import type { Tx } from '../db/client';
import type { OutboxRow } from '../db/schema/index';

export type MailOutcome =
  { status: 'sent' } | { status: 'retrying'; error: string; nextAttemptAt: Date } | { status: 'failed'; error: string };

/** `row` is the outbox row after the update (status, attempts, last_error, sent_at as recorded). */
export type MailOutcomeHandler = (row: OutboxRow, outcome: MailOutcome, tx: Tx) => Promise<void> | void;
