/**
 * Raising an alert once: by its dedupe key (two instances that read the same records insert one row), and
 * for a lasting condition by the flip of its state from inactive to active (one UPDATE, one winner).
 */
import { sql } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../db/client';
import { alerts, type AlertRow } from '../../db/schema/index';
import type { AlertDetail, AlertKind } from '../../../shared/contract/alerts';

export interface NewAlert {
  kind: AlertKind;
  dedupeKey: string;
  productId?: string | null;
  machineId?: string | null;
  serial?: string | null;
  recordId?: number | null;
  detail: AlertDetail;
  /** when it happened; default now (the demo raises alerts of its past) */
  raisedAt?: Date;
}

/** What happens when an alert is raised or acknowledged: webhooks and email, in the same transaction. */
export interface AlertSinks {
  raised(tx: Executor, alert: AlertRow): Promise<void>;
  acknowledged(tx: Executor, alert: AlertRow): Promise<void>;
}

export const silentSinks: AlertSinks = { raised: async () => {}, acknowledged: async () => {} };

/** The alert, or null when one with the same key exists already. */
export async function raiseAlert(tx: Executor, a: NewAlert, sinks: AlertSinks): Promise<AlertRow | null> {
  const [row] = await tx
    .insert(alerts)
    .values({
      kind: a.kind,
      dedupeKey: a.dedupeKey.slice(0, 300),
      productId: a.productId ?? null,
      machineId: a.machineId ?? null,
      serial: a.serial ?? null,
      recordId: a.recordId ?? null,
      detail: a.detail,
      ...(a.raisedAt ? { raisedAt: a.raisedAt } : {}),
    })
    .onConflictDoNothing({ target: alerts.dedupeKey })
    .returning();
  if (row) await sinks.raised(tx, row);
  return row ?? null;
}

/**
 * Records whether a lasting condition holds now; true only for the caller that saw it begin (it was
 * inactive or unknown), so the alert is raised once per episode, on whichever instance got there first.
 */
export async function conditionBegins(tx: Executor, key: string, holds: boolean): Promise<boolean> {
  if (!holds) {
    await tx.execute(sql`UPDATE alert_conditions SET active = false, changed_at = now() WHERE key = ${key} AND active`);
    return false;
  }
  const result = await tx.execute(sql`
    INSERT INTO alert_conditions (key, active) VALUES (${key}, true)
    ON CONFLICT (key) DO UPDATE SET active = true, changed_at = now() WHERE NOT alert_conditions.active
    RETURNING key`);
  return rowsOf(result).length > 0;
}

/** Raises the alert of a condition when it begins; its key carries the episode's start so each is new. */
export async function raiseOnCondition(
  tx: Executor,
  conditionKey: string,
  holds: boolean,
  a: Omit<NewAlert, 'dedupeKey'>,
  sinks: AlertSinks,
) {
  if (!(await conditionBegins(tx, conditionKey, holds))) return null;
  return raiseAlert(tx, { ...a, dedupeKey: `${conditionKey}@${(a.raisedAt ?? new Date()).toISOString()}` }, sinks);
}
