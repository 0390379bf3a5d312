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

/** Handlers registered outside any app, for a worker on a bare database (test/mail-worker.test.ts). */
const handlers = new Map<string, MailOutcomeHandler>();

/**
 * Registers a handler for one kind of message outside any app, replacing an earlier one; a hub's own
 * handler for the kind comes first. Returns a function that removes it.
 */
export function onMailOutcome(kind: string, handler: MailOutcomeHandler): () => void {
  handlers.set(kind, handler);
  return () => {
    if (handlers.get(kind) === handler) handlers.delete(kind);
  };
}

export function outcomeHandlerFor(kind: string): MailOutcomeHandler | undefined {
  return handlers.get(kind);
}
