/**
 * The webhook worker: claims due deliveries (deliveries.repo.ts: at most one per endpoint, across every
 * worker and instance), sends each signed, outside any transaction, and records the outcome: delivered, a
 * retry with backoff, or failed after 24 hours. Sends run side by side up to `concurrency`; a finished send
 * frees its slot at once, so a receiver that never answers holds one slot for the timeout while the other
 * endpoints keep flowing.
 */
import type { Db, Executor } from '../../db/client';
import type { WebhookEndpointRow } from '../../db/schema/index';
import type { Wakeup } from '../../lib/wakeup';
import { claim, disableEndpoint, recordOutcome, type ClaimedDelivery, type Outcome } from './deliveries.repo';
import { sendWebhook, type SendResult } from './http-send';
import {
  DEFAULT_DISABLE_RULE,
  DEFAULT_WEBHOOK_RETRY,
  nextAttemptAt,
  shouldDisable,
  type DisableRule,
  type WebhookRetryPolicy,
} from './retry-policy';
import { signedHeaders } from './signature';
import type { Lookup } from './ssrf-guard';

interface WorkerLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface WebhookWorkerOptions {
  db: Db;
  log: WorkerLog;
  /** links given as paths become absolute with it */
  publicBaseUrl: string;
  allowPrivate: boolean;
  /** one request, connection to the end of the answer */
  timeoutMs: number;
  /** rung after a transaction that wrote deliveries has committed */
  wakeup?: Wakeup;
  /** requests in flight at once (each to a different endpoint) */
  concurrency?: number;
  pollIntervalMs?: number;
  /** how long a claim holds; longer than timeoutMs, so a live worker's request ends before its lease */
  leaseMs?: number;
  retry?: WebhookRetryPolicy;
  disableAfter?: DisableRule;
  /** told in the outcome's transaction when an endpoint is switched off (the alerts module raises an alert) */
  onEndpointDisabled?: (tx: Executor, endpoint: WebhookEndpointRow) => Promise<void> | void;
  /** DNS for the SSRF guard (tests); default: the system's */
  lookup?: Lookup;
  userAgent?: string;
}

export interface WebhookWorker {
  start(): void;
  /** Claims what is due now, sends it and records the outcomes; resolves with the number sent. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

const USER_AGENT = 'TestReportCenter-Webhooks/1 (+https://www.standardwebhooks.com/)';

/** The body as sent: the stored payload with its links made absolute. */
export function bodyOf(payload: Record<string, unknown>, publicBaseUrl: string): string {
  const data = (payload.data ?? {}) as Record<string, unknown>;
  const links = (data.links ?? {}) as Record<string, string>;
  const absolute = Object.fromEntries(Object.entries(links).map(([k, v]) => [k, v.startsWith('/') ? `${publicBaseUrl}${v}` : v]));
  return JSON.stringify({ ...payload, data: { ...data, links: absolute } });
}

export function startWebhookWorker(options: WebhookWorkerOptions): WebhookWorker {
  const worker = createWebhookWorker(options);
  worker.start();
  return worker;
}

export function createWebhookWorker(options: WebhookWorkerOptions): WebhookWorker {
  const { db, log } = options;
  const concurrency = Math.max(1, options.concurrency ?? 8);
  const pollIntervalMs = options.pollIntervalMs ?? 2_000;
  const leaseMs = options.leaseMs ?? options.timeoutMs + 60_000;
  const retry = options.retry ?? DEFAULT_WEBHOOK_RETRY;
  const disableAfter = options.disableAfter ?? DEFAULT_DISABLE_RULE;
  const inFlight = new Set<Promise<void>>();
  let stopping = false;
  let wake: (() => void) | undefined;
  let kicked = false;

  async function attempt(d: ClaimedDelivery): Promise<SendResult> {
    const body = bodyOf(d.payload, options.publicBaseUrl);
    return sendWebhook({
      url: d.url,
      body,
      headers: {
        ...signedHeaders(d.secret, d.eventId, body),
        'content-type': 'application/json',
        'user-agent': options.userAgent ?? USER_AGENT,
      },
      timeoutMs: options.timeoutMs,
      guard: { allowPrivate: options.allowPrivate },
      lookup: options.lookup,
    });
  }

  async function deliver(d: ClaimedDelivery): Promise<void> {
    let result: SendResult;
    try {
      result = await attempt(d);
    } catch (err) {
      result = { ok: false, statusCode: null, durationMs: 0, error: (err as Error).message, responseBody: null };
    }
    const now = new Date();
    let outcome: Outcome;
    if (result.ok) outcome = { status: 'delivered' };
    else {
      const next = nextAttemptAt(d.eventAt, now, d.attempts, retry);
      outcome = next
        ? { status: 'retry', nextAttemptAt: next, error: result.error ?? 'failed' }
        : { status: 'failed', error: result.error ?? 'failed' };
    }
    const logged = { statusCode: result.statusCode, durationMs: result.durationMs, error: result.error, responseBody: result.responseBody };
    // The secret and the body stay out of the log: the event id finds the rest in the delivery log.
    const fields = { webhookEventId: d.eventId, endpointId: d.endpointId, attempt: d.attempts, statusCode: result.statusCode };
    if (result.ok) log.info(fields, 'webhook delivered');
    else log.warn({ ...fields, error: result.error }, outcome.status === 'failed' ? 'webhook failed' : 'webhook will be retried');
    for (let tries = 1; ; tries++) {
      try {
        await record(d, outcome, logged, now);
        return;
      } catch (err) {
        // A database hiccup: the delivery would be claimed again after its lease and sent twice; try a few times.
        if (tries >= 3) {
          log.error({ err, webhookEventId: d.eventId }, 'could not record the outcome of a webhook');
          return;
        }
        await new Promise((r) => setTimeout(r, 300 * tries));
      }
    }
  }

  async function record(d: ClaimedDelivery, outcome: Outcome, logged: Parameters<typeof recordOutcome>[3], now: Date): Promise<void> {
    await db.transaction(async (tx) => {
      const endpoint = await recordOutcome(tx, d, outcome, logged);
      if (!endpoint) {
        log.warn({ webhookEventId: d.eventId }, 'webhook lease was lost before the outcome was recorded');
        return;
      }
      if (outcome.status === 'delivered' || !endpoint.enabled || !shouldDisable(endpoint, now, disableAfter)) return;
      const reason = `${endpoint.consecutiveFailures} attempts in a row failed since ${endpoint.failingSince!.toISOString()}; last: ${outcome.error}`;
      const disabled = await disableEndpoint(tx, endpoint.id, reason.slice(0, 1000));
      if (!disabled) return;
      log.warn({ endpointId: endpoint.id }, 'webhook endpoint disabled after repeated failures');
      if (options.onEndpointDisabled) {
        const callback = options.onEndpointDisabled;
        try {
          // A savepoint: a failing callback must not undo the outcome, or a delivered event would be sent again.
          await tx.transaction(async (sp) => {
            await callback(sp, disabled);
          });
        } catch (err) {
          log.error({ err, endpointId: endpoint.id }, 'webhook endpoint-disabled callback failed');
        }
      }
    });
  }

  async function runOnce(): Promise<number> {
    const rows = await claim(db, concurrency, leaseMs);
    await Promise.all(rows.map(deliver));
    return rows.length;
  }

  /** Claims as many as there are free slots; each send frees its slot and wakes the loop when it ends. */
  async function fill(): Promise<{ free: number; claimed: number }> {
    const free = concurrency - inFlight.size;
    if (free <= 0) return { free, claimed: 0 };
    const rows = await claim(db, free, leaseMs);
    for (const row of rows) {
      const p: Promise<void> = deliver(row).finally(() => {
        inFlight.delete(p);
        kick();
      });
      inFlight.add(p);
    }
    return { free, claimed: rows.length };
  }

  function kick() {
    kicked = true;
    wake?.();
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      kicked = false;
      let full = false;
      try {
        const r = await fill();
        full = r.free > 0 && r.claimed === r.free;
      } catch (err) {
        log.error({ err }, 'webhook poll failed');
      }
      if (stopping) break;
      if (full && inFlight.size < concurrency) continue;
      if (kicked) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollIntervalMs);
        const ring = () => {
          clearTimeout(timer);
          resolve();
        };
        wake = ring;
        // The app's doorbell (a route that wrote deliveries): one wait on it at a time.
        void options.wakeup?.wait(pollIntervalMs).then(ring);
      });
      wake = undefined;
    }
  }

  let looping: Promise<void> | undefined;
  return {
    start() {
      if (looping || stopping) return;
      looping = loop();
    },
    runOnce,
    async stop() {
      stopping = true;
      wake?.();
      options.wakeup?.kick();
      await looping;
      await Promise.allSettled([...inFlight]);
    },
  };
}
