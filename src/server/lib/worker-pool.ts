/**
 * A small pool of worker threads behind a bounded queue, for CPU work that must not hold the event loop
 * (docs/decisions/0020: report rendering and signing). One pool per app: created by buildApp, closed when
 * the app closes, so that two apps in one process never share workers or queues.
 *
 * Work is admitted in units before it starts: a caller that will run several jobs (a report request naming
 * 20 serials) reserves them all at once, so a request is either refused whole, at once, or admitted with
 * room for all of its jobs. When the units in flight would pass `maxUnits`, `reserve` throws the
 * `unavailable` AppError (503 with Retry-After, error-handler.ts) instead of letting work pile up.
 *
 * Workers start on the first job and are replaced when one dies; a job whose worker died is refused with
 * the error, never left waiting. With `idleExitMs`, a worker that has had no job for that long is stopped
 * (a thread costs 10–30 MB, with its parsed fonts): after a burst the process returns to its idle memory
 * (docs/decisions/0033-server-memory.md), and the next job starts a new one.
 */
import type { Worker } from 'node:worker_threads';
import { AppError } from '../../shared/errors';

export interface WorkerPoolOptions {
  /** starts a worker; it answers `{ id, input }` messages with `{ id, ok, value }` or `{ id, ok: false, message }` */
  createWorker: () => Worker;
  /** threads; 0 runs each job in this thread through `inline`, with the same queue and bounds (tests, one core) */
  size: number;
  /** units admitted at once, running and waiting */
  maxUnits: number;
  /** seconds a refused caller is told to wait */
  retryAfterSeconds: number;
  /** the job, run in this thread when `size` is 0 */
  inline?: (input: unknown) => Promise<unknown>;
  /** ms a worker may stay without a job before it is stopped; omitted: workers stay until close */
  idleExitMs?: number;
  /** called once an idle worker has exited (the report pool gives the freed C heap back: lib/malloc-trim.ts) */
  afterIdleExit?: () => void;
}

interface Job {
  id: number;
  input: unknown;
  transfer: ArrayBuffer[];
  resolve(value: unknown): void;
  reject(err: Error): void;
}

interface Slot {
  worker: Worker | null;
  job: Job | null;
  /** stops the idle worker when it fires (idleExitMs) */
  idleTimer?: NodeJS.Timeout;
}

/** Room for `units` jobs, taken from the pool until released (once; releasing again does nothing). */
export interface Reservation {
  run<T>(input: unknown, transfer?: ArrayBuffer[]): Promise<T>;
  release(): void;
}

export class WorkerPool {
  private readonly slots: Slot[];
  private readonly waiting: Job[] = [];
  private unitsInUse = 0;
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: WorkerPoolOptions) {
    this.slots = Array.from({ length: Math.max(1, options.size) }, () => ({ worker: null, job: null }));
  }

  /** Units reserved and not yet released: what a request adds to is compared with `maxUnits`. */
  get inUse(): number {
    return this.unitsInUse;
  }

  /**
   * Throws the 503 AppError when `units` would not fit now, reserving nothing: a caller checks this before
   * the work that comes before its reservation (a report request's proof-of-work, a statement), so that
   * during a burst the requests refused cost a comparison, not a database statement each.
   */
  checkRoom(units: number): void {
    if (this.closed || this.unitsInUse + Math.max(1, units) > this.options.maxUnits) {
      throw new AppError('unavailable', 'limits.busy', { params: { seconds: this.options.retryAfterSeconds } });
    }
  }

  /** Reserves room for `units` jobs, or throws the 503 AppError when the pool is full. */
  reserve(units: number): Reservation {
    const need = Math.max(1, units);
    this.checkRoom(need);
    this.unitsInUse += need;
    let released = false;
    return {
      run: <T>(input: unknown, transfer: ArrayBuffer[] = []) => this.enqueue(input, transfer) as Promise<T>,
      release: () => {
        if (released) return;
        released = true;
        this.unitsInUse -= need;
      },
    };
  }

  /** One job under its own one-unit reservation. */
  async run<T>(input: unknown, transfer: ArrayBuffer[] = []): Promise<T> {
    const r = this.reserve(1);
    try {
      return await r.run<T>(input, transfer);
    } finally {
      r.release();
    }
  }

  private enqueue(input: unknown, transfer: ArrayBuffer[]): Promise<unknown> {
    if (this.closed)
      return Promise.reject(new AppError('unavailable', 'limits.busy', { params: { seconds: this.options.retryAfterSeconds } }));
    return new Promise((resolve, reject) => {
      this.waiting.push({ id: this.nextId++, input, transfer, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.job || this.waiting.length === 0) continue;
      const job = this.waiting.shift()!;
      slot.job = job;
      if (this.options.size === 0) {
        void this.runInline(slot, job);
        continue;
      }
      clearTimeout(slot.idleTimer);
      slot.worker ??= this.start(slot);
      // A busy worker keeps the process alive until it answers; an idle one does not (a script ends).
      slot.worker.ref();
      slot.worker.postMessage({ id: job.id, input: job.input }, job.transfer);
    }
  }

  private async runInline(slot: Slot, job: Job): Promise<void> {
    try {
      job.resolve(await this.options.inline!(job.input));
    } catch (err) {
      job.reject(err as Error);
    } finally {
      slot.job = null;
      this.dispatch();
    }
  }

  private start(slot: Slot): Worker {
    const worker = this.options.createWorker();
    worker.on('message', (msg: { id: number; ok: boolean; value?: unknown; message?: string }) => {
      const job = slot.job;
      if (!job || job.id !== msg.id) return;
      slot.job = null;
      worker.unref();
      if (msg.ok) job.resolve(msg.value);
      else job.reject(new Error(msg.message ?? 'worker job failed'));
      this.dispatch();
      if (!slot.job) this.stopWhenIdle(slot, worker);
    });
    const lost = (err: Error) => {
      if (slot.worker !== worker) return;
      slot.worker = null;
      const job = slot.job;
      slot.job = null;
      job?.reject(err);
      if (!this.closed) this.dispatch();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`worker stopped (exit code ${code})`)));
    return worker;
  }

  private stopWhenIdle(slot: Slot, worker: Worker): void {
    if (this.options.idleExitMs === undefined) return;
    clearTimeout(slot.idleTimer);
    slot.idleTimer = setTimeout(() => {
      if (slot.worker !== worker || slot.job) return;
      // Taken out of the slot first: its 'exit' is then not a lost worker, and the next job starts another.
      slot.worker = null;
      void worker.terminate().then(() => this.options.afterIdleExit?.());
    }, this.options.idleExitMs);
    slot.idleTimer.unref();
  }

  /** Refuses what waits, and stops the workers (their running jobs are refused too). */
  async close(): Promise<void> {
    this.closed = true;
    const gone = new Error('the app is closing');
    for (const job of this.waiting.splice(0)) job.reject(gone);
    await Promise.all(
      this.slots.map(async (slot) => {
        const worker = slot.worker;
        clearTimeout(slot.idleTimer);
        slot.worker = null;
        slot.job?.reject(gone);
        slot.job = null;
        if (worker) await worker.terminate();
      }),
    );
  }
}
