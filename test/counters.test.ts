import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryCounterStore, RedisCounterStore, type CounterStore } from '../src/server/lib/counters';
import { MAX_FAILURES_PER_ACCOUNT_IP } from '../src/server/modules/auth/login-limits';
import { buildTestApp } from './helpers/app';
import { createUser, randomIp } from './helpers/factories';

const redisUrl = process.env.TEST_REDIS_URL;
const redis = redisUrl ? new Redis(redisUrl) : undefined;
afterAll(async () => {
  await redis?.quit();
});

function behaves(name: string, make: () => CounterStore) {
  describe(name, () => {
    it('counts hits in a window, reports the time left and resets', async () => {
      const store = make();
      const key = `k-${randomBytes(4).toString('hex')}`;
      expect(await store.get(key)).toEqual({ count: 0, ttlMs: 0 });
      expect((await store.hit(key, 60_000)).count).toBe(1);
      const second = await store.hit(key, 60_000);
      expect(second.count).toBe(2);
      expect(second.ttlMs).toBeGreaterThan(0);
      expect(second.ttlMs).toBeLessThanOrEqual(60_000);
      expect((await store.get(key)).count).toBe(2);
      await store.reset(key);
      expect((await store.get(key)).count).toBe(0);
    });

    it('starts over when the window has passed', async () => {
      const store = make();
      const key = `k-${randomBytes(4).toString('hex')}`;
      await store.hit(key, 50);
      await new Promise((r) => setTimeout(r, 120));
      expect((await store.get(key)).count).toBe(0);
      expect((await store.hit(key, 50)).count).toBe(1);
    });
  });
}

behaves('memory counters', () => new MemoryCounterStore());
describe.runIf(redis)('with Redis (TEST_REDIS_URL)', () => {
  behaves('redis counters', () => new RedisCounterStore(redis!, `trc-test-${randomBytes(3).toString('hex')}:`));

  it('the app keeps its sign-in limits in Redis when REDIS_URL is set', async () => {
    const t = await buildTestApp({ REDIS_URL: redisUrl! });
    try {
      const u = await createUser(t.app.ctx.db);
      const ip = randomIp();
      const login = (password: string) =>
        t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: u.email, password }, remoteAddress: ip });
      for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT_IP; i++) expect((await login('Wrong-password-123')).statusCode).toBe(401);
      expect((await login(u.password)).statusCode).toBe(429);
      expect(await redis!.exists(`trc-counter:login:acct-ip:${u.email}|${ip}`)).toBe(1);
    } finally {
      await t.close();
    }
  });
});
