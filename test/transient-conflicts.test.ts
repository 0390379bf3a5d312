/**
 * A transaction PostgreSQL rolls back so that another can go on (a deadlock, a serialization failure) is
 * done again where the route knows the work can be (src/server/db/errors.ts `retryingConflicts`; the serial
 * ranges' create and update, whose exclusion constraint can deadlock two overlapping inserts), and is a 409
 * anywhere else, never a 500 (src/server/lib/error-handler.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../src/server/db/client';
import { conflictDelayMs, isTransientConflict, retryingConflicts } from '../src/server/db/errors';
import { buildTestApp, type TestApp } from './helpers/app';

const withCode = (code: string) => Object.assign(new Error(`code ${code}`), { code });
/** As Drizzle reports a failed query: its own error with the driver's as `cause`. */
const drizzle = (cause: unknown) => Object.assign(new Error('Failed query: update'), { cause });

describe('retryingConflicts', () => {
  it('does the work again after a deadlock or a serialization failure, and answers its result', async () => {
    for (const code of ['40P01', '40001']) {
      let calls = 0;
      const result = await retryingConflicts(async () => {
        calls++;
        if (calls === 1) throw drizzle(withCode(code));
        return 'done';
      });
      expect([code, result, calls]).toEqual([code, 'done', 2]);
    }
  });

  it('gives up after its attempts with the last error, and never repeats any other failure', async () => {
    let calls = 0;
    const deadlock = drizzle(withCode('40P01'));
    const pauses: number[] = [];
    await expect(
      retryingConflicts(
        async () => {
          calls++;
          throw deadlock;
        },
        3,
        async (attempt) => {
          pauses.push(attempt);
        },
      ),
    ).rejects.toBe(deadlock);
    expect(calls).toBe(3);
    // A pause before each attempt again, none after the last.
    expect(pauses).toEqual([1, 2]);

    calls = 0;
    const overlap = drizzle(withCode('23P01'));
    await expect(
      retryingConflicts(async () => {
        calls++;
        throw overlap;
      }),
    ).rejects.toBe(overlap);
    expect(calls).toBe(1);
    expect(isTransientConflict(overlap)).toBe(false);
    expect(isTransientConflict(new Error('boom'))).toBe(false);
  });

  it('pauses 5-20 ms before the second attempt and twice that before the third, at random', () => {
    expect([conflictDelayMs(1, 0), conflictDelayMs(1, 0.5), conflictDelayMs(1, 0.999)]).toEqual([5, 12.5, 5 + 0.999 * 15]);
    expect([conflictDelayMs(2, 0), conflictDelayMs(2, 0.999)]).toEqual([10, 2 * (5 + 0.999 * 15)]);
    const drawn = Array.from({ length: 50 }, () => conflictDelayMs(1));
    for (const ms of drawn) expect(ms >= 5 && ms < 20).toBe(true);
    expect(new Set(drawn).size).toBeGreaterThan(1);
  });
});

describe('a transient conflict in a route', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({}, (app) => {
      app.get('/api/v1/test-only/deadlock', { config: { access: 'public' } }, async () => {
        throw drizzle(withCode('40P01'));
      });
    });
  });
  afterAll(() => t.close());

  it('is a 409 that says to reload and try again, in the language asked for', async () => {
    const en = await t.app.inject({ url: '/api/v1/test-only/deadlock' });
    expect(en.statusCode).toBe(409);
    expect(en.json().error.message).toMatch(/try again/);
    const zh = await t.app.inject({ url: '/api/v1/test-only/deadlock', headers: { 'accept-language': 'zh-TW' } });
    expect(zh.statusCode).toBe(409);
    expect(zh.json().error.message).toMatch(/[\u4e00-\u9fff]/);
  });

  // PGlite has one connection: two transactions cannot wait for each other there.
  it.skipIf(!process.env.TEST_DATABASE_URL)('a real deadlock on PostgreSQL: both transactions end done, each applied once', async () => {
    const { db } = t.testDb.database;
    await db.execute(sql`CREATE TABLE deadlock_probe (id int PRIMARY KEY, n int NOT NULL)`);
    await db.execute(sql`INSERT INTO deadlock_probe VALUES (1, 0), (2, 0)`);
    // Each locks its first row, waits until the other has too, then asks for the other's: a deadlock on the
    // first attempt only (the barrier is passed once).
    let arrived = 0;
    let open!: () => void;
    const barrier = new Promise<void>((resolve) => (open = resolve));
    const attempts = [0, 0];
    const transfer = (who: 0 | 1, first: number, second: number) =>
      retryingConflicts(() =>
        db.transaction(async (tx) => {
          attempts[who]!++;
          await tx.execute(sql`UPDATE deadlock_probe SET n = n + 1 WHERE id = ${first}`);
          if (attempts[who] === 1) {
            if (++arrived === 2) open();
            await barrier;
          }
          await tx.execute(sql`UPDATE deadlock_probe SET n = n + 1 WHERE id = ${second}`);
        }),
      );
    await Promise.all([transfer(0, 1, 2), transfer(1, 2, 1)]);
    // PostgreSQL rolled one back (or, if the retry met the other again, each once): at least three attempts,
    // within the three each may make. The one it let through is usually done first time; which it is and
    // whether the retry meets it again are PostgreSQL's and the machine's, not this code's.
    expect(attempts[0]! + attempts[1]!).toBeGreaterThanOrEqual(3);
    expect(Math.max(...attempts)).toBeLessThanOrEqual(3);
    const rows = rowsOf<{ n: number }>(await db.execute(sql`SELECT n FROM deadlock_probe ORDER BY id`));
    expect(rows.map((r) => r.n)).toEqual([2, 2]);
  });
});
