/**
 * How the outbox is doing, for /readyz and the metrics: one query on the partial index of waiting messages
 * (mail_outbox_due_idx covers status queued/sending) and one on failed messages of the last day.
 */
import { sql } from 'drizzle-orm';
import { rowsOf, type Executor } from '../db/client';

export interface OutboxState {
  /** messages waiting to be sent (queued or being sent) */
  depth: number;
  /** seconds since the oldest waiting message was queued; 0 when none waits */
  oldestQueuedSeconds: number;
  /** waiting messages that already failed at least once (being retried) */
  retrying: number;
  /** messages that gave up (status failed) in the last 24 hours */
  failedLastDay: number;
}

/** An outbox counts as degraded when a message waits longer than this or a message gave up recently. */
export const OUTBOX_STUCK_SECONDS = 15 * 60;

export async function outboxState(db: Executor): Promise<OutboxState> {
  const [waiting] = rowsOf<{ depth: string | number; oldest: string | number | null; retrying: string | number }>(
    await db.execute(sql`
      SELECT count(*) AS depth,
             extract(epoch FROM (now() - min(created_at))) AS oldest,
             count(*) FILTER (WHERE attempts > 0) AS retrying
        FROM mail_outbox
       WHERE status IN ('queued', 'sending')`),
  );
  const [failed] = rowsOf<{ n: string | number }>(
    await db.execute(sql`
      SELECT count(*) AS n FROM mail_outbox
       WHERE status = 'failed' AND created_at > now() - interval '1 day'`),
  );
  return {
    depth: Number(waiting?.depth ?? 0),
    oldestQueuedSeconds: Math.max(0, Math.round(Number(waiting?.oldest ?? 0))),
    retrying: Number(waiting?.retrying ?? 0),
    failedLastDay: Number(failed?.n ?? 0),
  };
}
