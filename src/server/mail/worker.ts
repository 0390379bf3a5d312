/**
 * The outbox worker. It claims due rows in small batches with one UPDATE … FOR UPDATE SKIP LOCKED
 * (several workers, in one process or many, each get different rows), sends them outside any
 * transaction, then records sent, a retry with backoff, or failed.
 *
 * A claim is a lease: a row left in 'sending' by a worker that died is claimed again once locked_until
 * has passed, so delivery is at least once, never twice while workers are alive. The lease is far
 * longer than the SMTP timeouts, so a live worker's send ends before its lease does.
 */
import { and, eq, inArray, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { mailOutbox, type OutboxRow } from '../db/schema/index';
import { mailHubOf, type MailHub } from './hub';
import type { MailOutcome } from './outcomes';
import { classifySendError, DEFAULT_RETRY_POLICY, retryDelayMs, type RetryPolicy } from './retry-policy';
import type { MailLog, MailTransport, Sender } from './transports';

export interface MailWorkerOptions {
  db: Db;
  transport: MailTransport;
  log: MailLog;
  /** rows claimed (and sent concurrently) at a time */
  batchSize?: number;
  pollIntervalMs?: number;
  leaseMs?: number;
  retryPolicy?: RetryPolicy;
  /** whose composers and outcome handlers it uses and who may wake it; default: the hub of `db` */
  hub?: MailHub;
  /** the company's name and reply address for From and Reply-To (Settings, read by the caller); none: MAIL_FROM alone */
  sender?: () => Promise<Sender>;
}

export interface MailWorker {
  /** Starts polling every pollIntervalMs (startMailWorker does this). */
  start(): void;
  /** Claims one batch, sends it and records the outcomes; resolves with the number of rows handled. */
  runOnce(): Promise<number>;
  /** Wakes the polling loop now; call it after the transaction that enqueued mail has committed. */
  kick(): void;
  /** Stops polling and waits for the sends in flight and their outcomes to be recorded. */
  stop(): Promise<void>;
}

const DEFAULTS = { batchSize: 10, pollIntervalMs: 1_500, leaseMs: 5 * 60_000 };

const secondsSql = (ms: number) => sql`make_interval(secs => ${ms / 1000})`;

async function claim(db: Db, batchSize: number, leaseMs: number): Promise<OutboxRow[]> {
  const due = db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(
      or(
        and(eq(mailOutbox.status, 'queued'), lte(mailOutbox.nextAttemptAt, sql`now()`)),
        and(eq(mailOutbox.status, 'sending'), lt(mailOutbox.lockedUntil, sql`now()`)),
      ),
    )
    .orderBy(mailOutbox.nextAttemptAt)
    .limit(batchSize)
    .for('update', { skipLocked: true });
  return db
    .update(mailOutbox)
    .set({
      status: 'sending',
      lockedUntil: sql`now() + ${secondsSql(leaseMs)}`,
      attempts: sql`${mailOutbox.attempts} + 1`,
    })
    .where(inArray(mailOutbox.id, due))
    .returning();
}

type Decision =
  { status: 'sent' } | { status: 'retrying'; error: string; delayMs: number } | { status: 'failed'; error: string; attempts?: number };

/**
 * Records the decision if this worker still holds the claim (same attempt number, still 'sending'),
 * and tells the kind's handler in the same transaction. False when the lease was lost.
 */
async function record(db: Db, hub: MailHub, row: OutboxRow, d: Decision, log: MailLog): Promise<boolean> {
  return db.transaction(async (tx) => {
    const set =
      d.status === 'sent'
        ? { status: 'sent' as const, sentAt: sql`now()`, lockedUntil: null, lastError: null }
        : d.status === 'retrying'
          ? { status: 'queued' as const, nextAttemptAt: sql`now() + ${secondsSql(d.delayMs)}`, lockedUntil: null, lastError: d.error }
          : { status: 'failed' as const, lockedUntil: null, lastError: d.error, ...(d.attempts ? { attempts: d.attempts } : {}) };
    const [updated] = await tx
      .update(mailOutbox)
      .set(set)
      .where(and(eq(mailOutbox.id, row.id), eq(mailOutbox.status, 'sending'), eq(mailOutbox.attempts, row.attempts)))
      .returning();
    if (!updated) return false;
    const handler = hub.outcomeHandlerFor(row.kind);
    if (handler) {
      const outcome: MailOutcome =
        d.status === 'retrying'
          ? { status: 'retrying', error: d.error, nextAttemptAt: updated.nextAttemptAt }
          : d.status === 'failed'
            ? { status: 'failed', error: d.error }
            : { status: 'sent' };
      try {
        // A savepoint: a failing handler must not undo the outbox update, or a sent message would be sent again.
        await tx.transaction((sp) => Promise.resolve(handler(updated, outcome, sp)));
      } catch (err) {
        log.error({ err, outboxId: row.id, kind: row.kind }, 'mail outcome handler failed');
      }
    }
    return true;
  });
}

/** A worker that polls from now on. */
export function startMailWorker(options: MailWorkerOptions): MailWorker {
  const worker = createMailWorker(options);
  worker.start();
  return worker;
}

/** A worker that does nothing until start() or runOnce() (tests drive it step by step). */
export function createMailWorker(options: MailWorkerOptions): MailWorker {
  const { db, transport, log } = options;
  const batchSize = options.batchSize ?? DEFAULTS.batchSize;
  const pollIntervalMs = options.pollIntervalMs ?? DEFAULTS.pollIntervalMs;
  const leaseMs = options.leaseMs ?? DEFAULTS.leaseMs;
  const policy = options.retryPolicy ?? DEFAULT_RETRY_POLICY;
  const hub = options.hub ?? mailHubOf(db);

  let stopping = false;
  let kicked = false;
  let wake: (() => void) | undefined;
  const inFlight = new Set<Promise<number>>();

  async function deliver(row: OutboxRow): Promise<void> {
    let decision: Decision;
    if (row.attempts > row.maxAttempts) {
      // Claimed again after its lease ran out during the last attempt: whether that one arrived is
      // unknown, and no attempts are left, so it ends here rather than risking a further copy.
      decision = { status: 'failed', error: 'The worker sending the last attempt stopped before it finished', attempts: row.maxAttempts };
    } else {
      try {
        const toSend = await compose(row);
        if (toSend) {
          const result = await transport.send(toSend, await options.sender?.().catch(() => undefined));
          log.info({ outboxId: row.id, kind: row.kind, messageId: result.messageId }, 'email sent');
          decision = { status: 'sent' };
        } else {
          decision = { status: 'failed', error: 'No longer needed: the account changed before it was sent' };
        }
      } catch (err) {
        const failure = classifySendError(err);
        decision =
          failure.permanent || row.attempts >= row.maxAttempts
            ? { status: 'failed', error: failure.message }
            : { status: 'retrying', error: failure.message, delayMs: retryDelayMs(row.attempts, policy) };
        log.warn(
          { outboxId: row.id, kind: row.kind, attempts: row.attempts, error: failure.message },
          decision.status === 'failed' ? 'email failed' : 'email will be retried',
        );
      }
    }
    await recordDecision(row, decision);
  }

  /** The row as it is sent: a composer (composers.ts) makes the content of kinds that carry a secret. */
  async function compose(row: OutboxRow): Promise<OutboxRow | null> {
    const composer = hub.composerFor(row.kind);
    if (!composer) return row;
    const content = await composer(db, row, { keepsCopy: transport.keepsCopies });
    if (!content) return null;
    return {
      ...row,
      subject: content.subject ?? row.subject,
      textBody: content.text,
      htmlBody: content.html ?? null,
      attachments: content.attachments ?? row.attachments,
    };
  }

  async function recordDecision(row: OutboxRow, decision: Decision): Promise<void> {
    // A database hiccup here would leave a sent message to be claimed again after its lease; try a few times.
    for (let attempt = 1; ; attempt++) {
      try {
        if (!(await record(db, hub, row, decision, log)))
          log.warn({ outboxId: row.id }, 'mail outbox lease was lost before the outcome was recorded');
        return;
      } catch (err) {
        if (attempt >= 3) {
          log.error({ err, outboxId: row.id }, 'could not record the outcome of an email');
          return;
        }
        await new Promise((r) => setTimeout(r, 500 * attempt));
      }
    }
  }

  async function batch(): Promise<number> {
    const rows = await claim(db, batchSize, leaseMs);
    await Promise.all(rows.map(deliver));
    return rows.length;
  }

  function runOnce(): Promise<number> {
    const p = batch();
    inFlight.add(p);
    const forget = () => inFlight.delete(p);
    p.then(forget, forget);
    return p;
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      kicked = false;
      let handled = 0;
      try {
        handled = await runOnce();
      } catch (err) {
        log.error({ err }, 'mail outbox poll failed');
      }
      // A full batch means more may be due: go on at once; so does a kick that came while busy.
      if (stopping || handled >= batchSize || kicked) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollIntervalMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  }

  let looping: Promise<void> | undefined;
  const worker: MailWorker = {
    start() {
      if (looping || stopping) return;
      hub.join(worker);
      looping = loop();
    },
    runOnce,
    kick() {
      kicked = true;
      wake?.();
    },
    async stop() {
      stopping = true;
      hub.leave(worker);
      wake?.();
      await looping;
      await Promise.allSettled([...inFlight]);
    },
  };
  return worker;
}
