/**
 * Work a route starts once its answer is decided and does after it, so that the answer takes the same
 * time whatever the work finds (forgot-password must not tell, by its speed, that an account exists).
 * Tracked, so that closing the app waits for it and a test can wait for it.
 */
import type { FastifyBaseLogger } from 'fastify';

export class AfterResponse {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly log: Pick<FastifyBaseLogger, 'error'>) {}

  /** Runs `work` after the current request's answer has been written; a failure is logged, never thrown. */
  run(label: string, work: () => Promise<void>): void {
    const p = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .catch((err: unknown) => this.log.error({ err }, `${label} failed`))
      .finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  /** Resolves when nothing started by run() is still going. */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}
