/**
 * The alerts' background work (docs/decisions/0065-quality-alerts.md): every minute, and at once when
 * records arrive (the ingestion rings its doorbell after its commit), it reads the records received since
 * its last round and raises what they call for, then the clock's alerts. Ingestion itself pays nothing.
 *
 * Several instances may run it at once: every alert is raised by a unique key or by the atomic flip of a
 * condition, so each is raised once. A round re-reads the last OVERLAP of records, because a transaction
 * that began earlier may commit after the previous round read past its received_at; the keys make the
 * re-read harmless.
 */
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client';
import { alertThresholds } from '../../db/schema/index';
import type { Wakeup } from '../../lib/wakeup';
import { benchGroups, disagreementAlerts, ruleAlerts, touchedGroups, yieldAlert } from './record-checks';
import { calibrationAlerts, deliveryHeldAlerts, silenceAlert } from './time-checks';
import type { AlertSinks } from './raise';

export const EVALUATE_EVERY_MS = 60_000;
/** Rounds at most this often, however often records arrive: a bench streaming records is read in batches. */
const MIN_GAP_MS = 5_000;
const OVERLAP_MS = 10 * 60_000;
/** A first round (a new database, an upgrade) looks back this far, not over years of records. */
const FIRST_LOOKBACK_MS = 24 * 60 * 60_000;

export interface EvaluationResult {
  raised: number;
  readFrom: Date;
}

async function readFrom(db: Db, now: Date): Promise<Date> {
  const [row] = rowsOf<{ read_until: Date }>(await db.execute(sql`SELECT read_until FROM alert_cursor`));
  const from = row ? new Date(row.read_until).getTime() - OVERLAP_MS : now.getTime() - FIRST_LOOKBACK_MS;
  return new Date(from);
}

async function moveCursor(db: Db, to: Date): Promise<void> {
  await db.execute(sql`
    INSERT INTO alert_cursor (singleton, read_until) VALUES (true, ${to})
    ON CONFLICT (singleton) DO UPDATE SET read_until = GREATEST(alert_cursor.read_until, EXCLUDED.read_until)`);
}

/** The next round reads the records received from `at` on (the demo, whose import all arrives at once). */
export async function readRecordsFrom(db: Db, at: Date): Promise<void> {
  await db.execute(sql`
    INSERT INTO alert_cursor (singleton, read_until) VALUES (true, ${new Date(at.getTime() + OVERLAP_MS)})
    ON CONFLICT (singleton) DO UPDATE SET read_until = EXCLUDED.read_until`);
}

/** One round: the records' alerts since the cursor, then the clock's; the cursor moves to the round's start. */
export async function evaluateAlerts(
  db: Db,
  sinks: AlertSinks,
  now = new Date(),
  options: { records?: boolean } = {},
): Promise<EvaluationResult> {
  const since = await readFrom(db, now);
  // records: false reads only the clock's alerts (the demo, whose records all arrive at once)
  const reading = options.records ?? true;
  let raised = reading ? await disagreementAlerts(db, since, sinks) : 0;
  const groups = reading ? await touchedGroups(db, since) : [];
  const thresholds = await db.select().from(alertThresholds);
  const baselines = new Map(
    thresholds
      .filter((t) => t.baselineFrom && t.baselineTo)
      .map((t) => [t.productId ?? t.machineId!, { from: t.baselineFrom!, to: t.baselineTo! }]),
  );
  // A product's charts read the product's baseline; a bench's pressure ratio, the bench's.
  for (const g of [...groups, ...benchGroups(groups)])
    raised += await ruleAlerts(db, g, now, sinks, baselines.get(g.productId ?? g.machineId) ?? null, since);

  const touchedProducts = new Set(groups.map((g) => g.productId));
  const touchedBenches = new Set(groups.map((g) => g.machineId));
  for (const t of thresholds) {
    if ((t.productId && touchedProducts.has(t.productId)) || (t.machineId && touchedBenches.has(t.machineId))) {
      if (await yieldAlert(db, t, now, sinks)) raised++;
    }
    if (t.silenceMinutes !== null && (await silenceAlert(db, t, now, sinks))) raised++;
  }
  raised += await calibrationAlerts(db, now, sinks);
  raised += await deliveryHeldAlerts(db, sinks);
  await moveCursor(db, now);
  return { raised, readFrom: since };
}

export interface AlertEvaluator {
  stop(): Promise<void>;
}

/** The loop: a round every EVALUATE_EVERY_MS, or sooner when `wakeup` rings. */
export function startAlertEvaluator(deps: {
  db: Db;
  sinks: AlertSinks;
  wakeup: Wakeup;
  log: { warn: (o: object, m: string) => void; info: (o: object, m: string) => void };
  everyMs?: number;
  /** more work each round (the daily digest) */
  afterRound?: () => Promise<unknown>;
  /** the first round waits for this (the start's re-judgement of stored records) */
  startAfter?: Promise<unknown>;
}): AlertEvaluator {
  let stopping = false;
  const loop = (async () => {
    await deps.startAfter;
    while (!stopping) {
      try {
        const r = await evaluateAlerts(deps.db, deps.sinks);
        if (r.raised > 0) deps.log.info({ raised: r.raised }, 'alerts raised');
        await deps.afterRound?.();
      } catch (err) {
        deps.log.warn({ err }, 'alert evaluation failed');
      }
      if (stopping) break;
      const gap = Math.min(MIN_GAP_MS, deps.everyMs ?? EVALUATE_EVERY_MS);
      await new Promise((r) => setTimeout(r, gap).unref());
      if (stopping) break;
      await deps.wakeup.wait((deps.everyMs ?? EVALUATE_EVERY_MS) - gap);
    }
  })();
  return {
    async stop() {
      stopping = true;
      deps.wakeup.kick();
      await loop;
    },
  };
}
