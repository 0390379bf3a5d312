/**
 * Reports are rendered and signed in the app's worker pool behind a bounded queue (render-job.ts,
 * lib/worker-pool.ts): while many report requests naming many serials arrive at once, /healthz and the
 * lookup keep answering, the requests the pool has no room for are refused whole with 503 and Retry-After
 * (nothing written for them), and memory stays bounded. No timings are asserted.
 */
import { eq } from 'drizzle-orm';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { searchRequests } from '../src/server/db/schema/index';
import { WorkerPool } from '../src/server/lib/worker-pool';
import { buildTestApp, type TestApp } from './helpers/app';
import { solvedChallengeFast } from './helpers/pow';
import { catalogue, lookup, postRequest, requestBody, testData } from './helpers/public';

vi.setConfig({ testTimeout: 240_000, hookTimeout: 240_000 });

describe('report requests under attack', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Real worker threads (one, as on a two-core machine); room for two requests of 20 serials at once.
    t = await buildTestApp({ REPORT_WORKERS: '1', REPORT_QUEUE: '40' });
  });
  afterAll(() => t.close());

  it('keeps /healthz and the lookup answering, refuses the excess with 503 and Retry-After, and keeps memory bounded', async () => {
    const c = await catalogue(t);
    // Every fifth unit has test data (a report to render); the others were never tested. Each request names
    // 20 of the 100 units, each unit named by at most four requests (under the per-serial limit).
    const withData = Array.from({ length: 20 }, (_, i) => c.serial(i * 5 + 1));
    for (const s of withData) await testData(t, s);
    const serialsOf = (i: number) => Array.from({ length: 20 }, (_, k) => c.serial(((i * 5 + k) % 100) + 1));
    const bodies = await Promise.all(
      Array.from({ length: 20 }, async (_, i) =>
        requestBody({ serials: serialsOf(i), language: i % 2 ? 'zh' : 'en', challenge: await solvedChallengeFast(t.app) }),
      ),
    );
    const serials = serialsOf(0);

    const rssBefore = process.memoryUsage().rss;
    let peakRss = rssBefore;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
    const attack = Promise.all(bodies.map((b) => postRequest(t.app, b, { headers: { 'accept-language': 'zh-TW' } })));
    const answers: number[] = [];
    let done = false;
    void attack.finally(() => (done = true));
    // While the attack runs: the liveness probe and a visitor's lookup answer.
    do {
      answers.push((await t.app.inject({ url: '/healthz' })).statusCode);
      answers.push((await lookup(t.app, serials[3])).statusCode);
    } while (!done && answers.length < 40);
    const results = await attack;
    clearInterval(sampler);

    expect(answers.every((s) => s === 200)).toBe(true);
    const ok = results.filter((r) => r.statusCode === 200);
    const busy = results.filter((r) => r.statusCode === 503);
    expect(results.map((r) => r.statusCode).filter((s) => s !== 200 && s !== 503)).toEqual([]);
    expect(ok.length).toBeGreaterThan(0);
    expect(busy.length).toBeGreaterThan(0);
    for (const r of busy) {
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
      expect(r.json().error).toMatchObject({ status: 'UNAVAILABLE', key: 'limits.busy' });
      expect(r.json().error.message).toMatch(/伺服器正忙/);
    }
    // A refused request wrote nothing: no request rows for its address.
    for (const [i, r] of results.entries()) {
      const rows = await t.app.ctx.db
        .select()
        .from(searchRequests)
        .where(eq(searchRequests.recipientEmail, bodies[i]!.email as string));
      expect(rows.length).toBe(r.statusCode === 200 ? serials.length : 0);
      if (r.statusCode === 200) {
        const issued = r.json().data.results.filter((x: { outcome: string }) => x.outcome === 'issued');
        expect(issued).toHaveLength(serialsOf(i).filter((s) => withData.includes(s)).length);
      }
    }
    // This process also holds vitest and the test database (about 500 MB before the attack); what the attack
    // adds is the worker and the reports in flight. The server's own figure is bench/report-load.bench.ts's.
    expect(peakRss - rssBefore).toBeLessThan(300 * 1024 * 1024);
    // When the attack is over, the pool has room again.
    expect(t.app.ctx.reportPool.inUse).toBe(0);
  });
});

describe("the report pool's default room", () => {
  it('is one request of 20 serials on the embedded database and three on PostgreSQL', async () => {
    // On PGlite the database runs in the app's thread and stores every admitted report there too.
    const t = await buildTestApp({ REPORT_WORKERS: '1' });
    try {
      const room = t.app.ctx.database.kind === 'pglite' ? 20 : 60;
      const pool = t.app.ctx.reportPool;
      const held = pool.reserve(room);
      expect(() => pool.reserve(1)).toThrow(expect.objectContaining({ code: 'unavailable' }));
      held.release();
      expect(pool.inUse).toBe(0);
    } finally {
      await t.close();
    }
  });

  it('is what REPORT_QUEUE says on either engine', async () => {
    const t = await buildTestApp({ REPORT_WORKERS: '1', REPORT_QUEUE: '45' });
    try {
      const held = t.app.ctx.reportPool.reserve(45);
      expect(() => t.app.ctx.reportPool.reserve(1)).toThrow(expect.objectContaining({ code: 'unavailable' }));
      held.release();
    } finally {
      await t.close();
    }
  });
});

describe('the worker pool', () => {
  // A worker that doubles a number, or dies when asked to.
  const code = `
    const { parentPort } = require('node:worker_threads');
    parentPort.on('message', ({ id, input }) => {
      if (input === 'die') process.exit(3);
      if (input === 'fail') return parentPort.postMessage({ id, ok: false, message: 'no' });
      setTimeout(() => parentPort.postMessage({ id, ok: true, value: input * 2 }), 20);
    });`;
  const pool = (maxUnits: number, size = 1) =>
    new WorkerPool({ createWorker: () => new Worker(code, { eval: true }), size, maxUnits, retryAfterSeconds: 7 });

  it('runs jobs in its threads and refuses a reservation it has no room for, whole, with the wait', async () => {
    const p = pool(5, 2);
    const room = p.reserve(4);
    expect(() => p.reserve(2)).toThrow(expect.objectContaining({ code: 'unavailable', params: { seconds: 7 } }));
    expect(await Promise.all([1, 2, 3, 4].map((n) => room.run<number>(n)))).toEqual([2, 4, 6, 8]);
    expect(await p.run<number>(21)).toBe(42);
    room.release();
    room.release();
    expect(p.inUse).toBe(0);
    await p.close();
  });

  it('tells whether there is room without taking it', async () => {
    const p = pool(5);
    p.checkRoom(5);
    expect(p.inUse).toBe(0);
    const room = p.reserve(4);
    p.checkRoom(1);
    expect(() => p.checkRoom(2)).toThrow(expect.objectContaining({ code: 'unavailable', params: { seconds: 7 } }));
    room.release();
    p.checkRoom(5);
    await p.close();
    expect(() => p.checkRoom(1)).toThrow(expect.objectContaining({ code: 'unavailable' }));
  });

  it('refuses the job of a worker that died or failed, and starts a new worker for the next', async () => {
    const p = pool(3);
    await expect(p.run('die')).rejects.toThrow(/exit code 3/);
    await expect(p.run('fail')).rejects.toThrow('no');
    expect(await p.run<number>(5)).toBe(10);
    await p.close();
  });

  it('refuses what waits when closed, and everything after', async () => {
    const p = pool(10);
    const room = p.reserve(3);
    const jobs = [room.run(1), room.run(2), room.run(3)].map((j) => j.catch((e: Error) => e.message));
    await p.close();
    expect(await Promise.all(jobs)).toContain('the app is closing');
    expect(() => p.reserve(1)).toThrow(expect.objectContaining({ code: 'unavailable' }));
  });

  it('runs in the app thread through the same bounds when it has no threads', async () => {
    const p = new WorkerPool({
      createWorker: () => {
        throw new Error('no threads here');
      },
      size: 0,
      maxUnits: 1,
      retryAfterSeconds: 1,
      inline: async (n) => (n as number) + 1,
    });
    expect(await p.run<number>(1)).toBe(2);
    p.reserve(1);
    expect(() => p.reserve(1)).toThrow(expect.objectContaining({ code: 'unavailable' }));
    await p.close();
  });
});
