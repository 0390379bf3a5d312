/**
 * What the mail machinery of one app shares: the workers running on its database (so that a request that
 * queued mail can wake them), the outcome handlers (outcomes.ts) and the composers (composers.ts) its
 * modules register. The app holds it as `app.ctx.mail` (src/server/app.ts), so two apps in one process
 * (tests build many) never see each other's handlers or wake each other's workers.
 *
 * There is one hub per database handle: a worker built by hand on an app's `ctx.db` (tests drive one step
 * by step) finds the handlers that app's modules registered, without being handed the hub.
 */
import type { Db } from '../db/client';
import type { MailComposer } from './composers';
import type { MailOutcomeHandler } from './outcomes';

/** The part of a worker a hub needs (worker.ts). */
export interface Wakeable {
  kick(): void;
}

export class MailHub {
  private readonly workers = new Set<Wakeable>();
  private readonly outcomes = new Map<string, MailOutcomeHandler>();
  private readonly composers = new Map<string, MailComposer>();

  /** Wakes every worker running on this hub (call after committing a transaction that enqueued mail). */
  kick(): void {
    for (const w of this.workers) w.kick();
  }

  join(worker: Wakeable): void {
    this.workers.add(worker);
  }

  leave(worker: Wakeable): void {
    this.workers.delete(worker);
  }

  /** Registers the outcome handler of one kind, replacing an earlier one; returns a function that removes it. */
  onOutcome(kind: string, handler: MailOutcomeHandler): () => void {
    return register(this.outcomes, kind, handler);
  }

  outcomeHandlerFor(kind: string): MailOutcomeHandler | undefined {
    return this.outcomes.get(kind);
  }

  /** Registers the composer of one kind, replacing an earlier one; returns a function that removes it. */
  onCompose(kind: string, composer: MailComposer): () => void {
    return register(this.composers, kind, composer);
  }

  composerFor(kind: string): MailComposer | undefined {
    return this.composers.get(kind);
  }
}

function register<T>(map: Map<string, T>, kind: string, value: T): () => void {
  map.set(kind, value);
  return () => {
    if (map.get(kind) === value) map.delete(kind);
  };
}

const hubs = new WeakMap<Db, MailHub>();

/** The hub of a database handle (made on first use); the app's `ctx.mail` is the hub of its `ctx.db`. */
export function mailHubOf(db: Db): MailHub {
  let hub = hubs.get(db);
  if (!hub) {
    hub = new MailHub();
    hubs.set(db, hub);
  }
  return hub;
}
