/**
 * The worker pool gives its threads back after a burst (docs/decisions/0033-server-memory.md): a worker
 * with no job for `idleExitMs` is stopped, and the next job starts a new one; without the option, and
 * while jobs keep coming, the same worker stays.
 */
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { WorkerPool } from '../src/server/lib/worker-pool';

// A worker that answers with its own thread id, so that a test can tell a new worker from the old one.
const code = `
  const { parentPort, threadId } = require('node:worker_threads');
  parentPort.on('message', ({ id }) => parentPort.postMessage({ id, ok: true, value: threadId }));`;

function pool(idleExitMs?: number) {
  const exits: number[] = [];
  /** the pool's `afterIdleExit` calls, each with the exits seen by then */
  const afterExit: number[] = [];
  const p = new WorkerPool({
    createWorker: () => {
      const w = new Worker(code, { eval: true });
      w.on('exit', (exitCode) => exits.push(exitCode));
      return w;
    },
    size: 1,
    maxUnits: 4,
    retryAfterSeconds: 1,
    idleExitMs,
    afterIdleExit: () => afterExit.push(exits.length),
  });
  return { p, exits, afterExit };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('idle workers', () => {
  it('stops a worker left without jobs for idleExitMs, and starts a new one for the next job', async () => {
    const { p, exits, afterExit } = pool(150);
    try {
      const first = await p.run<number>(1);
      expect(await p.run<number>(2)).toBe(first);
      // Stopped once the time is up (waited for, not assumed: a loaded machine stops a thread slowly).
      for (let waited = 0; exits.length === 0 && waited < 10_000; waited += 50) await pause(50);
      expect(exits).toHaveLength(1);
      // …and the pool says so once the thread is gone (the report pool then gives back its freed memory).
      for (let waited = 0; afterExit.length === 0 && waited < 10_000; waited += 50) await pause(50);
      expect(afterExit).toEqual([1]);
      const next = await p.run<number>(3);
      expect(next).not.toBe(first);
    } finally {
      await p.close();
    }
  });

  it('keeps a worker that is busy again before the time is up, and every worker without the option', async () => {
    const busy = pool(1_500);
    const kept = pool();
    try {
      const first = await busy.p.run<number>(1);
      for (let i = 0; i < 4; i++) {
        await pause(150);
        expect(await busy.p.run<number>(i)).toBe(first);
      }
      expect(busy.exits).toHaveLength(0);
      expect(busy.afterExit).toHaveLength(0);
      const stays = await kept.p.run<number>(1);
      await pause(600);
      expect(await kept.p.run<number>(2)).toBe(stays);
      expect(kept.exits).toHaveLength(0);
    } finally {
      await busy.p.close();
      await kept.p.close();
    }
  });
});
