import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MemoryCounterStore } from '../src/server/lib/counters';
import { FORGOT_PER_EMAIL, FORGOT_PER_IP, REGISTER_PER_IP } from '../src/server/modules/auth/auth.routes';
import {
  LoginLimiter,
  LOGIN_WINDOW_MS,
  MAX_FAILURES_PER_ACCOUNT,
  MAX_FAILURES_PER_ACCOUNT_IP,
  MAX_FAILURES_PER_IP,
} from '../src/server/modules/auth/login-limits';
import { buildTestApp, type TestApp } from './helpers/app';
import { createUser, GOOD_PASSWORD, randomIp, uniqueEmail } from './helpers/factories';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const login = (email: string, password: string, ip: string) =>
  t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password }, remoteAddress: ip });

async function fail(times: number, email: string, ip: () => string) {
  for (let i = 0; i < times; i++) expect((await login(email, 'Wrong-password-123', ip())).statusCode).toBe(401);
}

function expectLoginLimited(res: Awaited<ReturnType<typeof login>>) {
  expect(res.statusCode).toBe(429);
  expect(res.json().error).toMatchObject({ status: 'RESOURCE_EXHAUSTED', key: 'errors.tooManyLoginAttempts' });
  expect(res.json().error.message).toMatch(/^Too many sign-in attempts; try again in \d+ minutes?$/);
  const retry = Number(res.headers['retry-after']);
  expect(retry).toBeGreaterThan(0);
  // Bounded: never longer than one window.
  expect(retry).toBeLessThanOrEqual(LOGIN_WINDOW_MS / 1000);
}

describe('failed sign-in limits', () => {
  it(`blocks an account from one address after ${MAX_FAILURES_PER_ACCOUNT_IP} failures, even with the right password`, async () => {
    const u = await createUser(t.app.ctx.db);
    const ip = randomIp();
    await fail(MAX_FAILURES_PER_ACCOUNT_IP, u.email, () => ip);
    expectLoginLimited(await login(u.email, u.password, ip));
    // The owner signing in from elsewhere is not locked out by this.
    expect((await login(u.email, u.password, randomIp())).statusCode).toBe(200);
  });

  it('counts unknown e-mails like known ones, so the limit reveals nothing', async () => {
    const ip = randomIp();
    const email = uniqueEmail('ghost');
    await fail(MAX_FAILURES_PER_ACCOUNT_IP, email, () => ip);
    expectLoginLimited(await login(email, GOOD_PASSWORD, ip));
  });

  it('clears the account counter for that address after a success', async () => {
    const u = await createUser(t.app.ctx.db);
    const ip = randomIp();
    await fail(MAX_FAILURES_PER_ACCOUNT_IP - 1, u.email, () => ip);
    expect((await login(u.email, u.password, ip)).statusCode).toBe(200);
    await fail(MAX_FAILURES_PER_ACCOUNT_IP - 1, u.email, () => ip);
    expect((await login(u.email, u.password, ip)).statusCode).toBe(200);
  });

  it(`blocks one address after ${MAX_FAILURES_PER_IP} failures over any accounts`, async () => {
    const ip = randomIp();
    for (let i = 0; i < MAX_FAILURES_PER_IP; i++) {
      expect((await login(uniqueEmail('spray'), 'Wrong-password-123', ip)).statusCode).toBe(401);
    }
    const u = await createUser(t.app.ctx.db);
    expectLoginLimited(await login(u.email, u.password, ip));
    expect((await login(u.email, u.password, randomIp())).statusCode).toBe(200);
  });

  it(`blocks an account from everywhere after ${MAX_FAILURES_PER_ACCOUNT} failures from many addresses`, async () => {
    const u = await createUser(t.app.ctx.db);
    await fail(MAX_FAILURES_PER_ACCOUNT, u.email, randomIp);
    expectLoginLimited(await login(u.email, u.password, randomIp()));
  });

  it('counts wrong current passwords on /auth/password as failed sign-ins', async () => {
    const u = await createUser(t.app.ctx.db);
    const ip = randomIp();
    const { signIn } = await import('./helpers/factories');
    const cookie = await signIn(t.app, u.email, u.password, { remoteAddress: ip });
    const change = (current: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/password',
        payload: { currentPassword: current, newPassword: 'Another-Good-Passw0rd' },
        headers: { cookie },
        remoteAddress: ip,
      });
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT_IP; i++) expect((await change('Wrong-password-123')).statusCode).toBe(400);
    const res = await change(u.password);
    expect(res.statusCode).toBe(429);
    expect(res.json().error.key).toBe('errors.tooManyLoginAttempts');
  });
});

describe('limits under parallel requests', () => {
  const statuses = (responses: { statusCode: number }[]) => {
    const count: Record<number, number> = {};
    for (const r of responses) count[r.statusCode] = (count[r.statusCode] ?? 0) + 1;
    return count;
  };

  async function sixtyWrongAtOnce(app: TestApp['app']) {
    const u = await createUser(app.ctx.db);
    const ip = randomIp();
    const responses = await Promise.all(
      Array.from({ length: 60 }, () =>
        app.inject({
          method: 'POST',
          url: '/api/v1/auth/login',
          payload: { email: u.email, password: 'Wrong-password-123' },
          remoteAddress: ip,
        }),
      ),
    );
    return { u, ip, count: statuses(responses) };
  }

  it(`checks only ${MAX_FAILURES_PER_ACCOUNT_IP} of 60 wrong passwords sent at once from one address`, async () => {
    const { u, ip, count } = await sixtyWrongAtOnce(t.app);
    expect(count).toEqual({ 401: MAX_FAILURES_PER_ACCOUNT_IP, 429: 60 - MAX_FAILURES_PER_ACCOUNT_IP });
    expectLoginLimited(await login(u.email, u.password, ip));
  });

  it.runIf(process.env.TEST_REDIS_URL)('holds the same with the counters in Redis', async () => {
    const r = await buildTestApp({ REDIS_URL: process.env.TEST_REDIS_URL! });
    try {
      const { count } = await sixtyWrongAtOnce(r.app);
      expect(count).toEqual({ 401: MAX_FAILURES_PER_ACCOUNT_IP, 429: 60 - MAX_FAILURES_PER_ACCOUNT_IP });
    } finally {
      await r.close();
    }
  });

  it('checks only as many current passwords of a password change sent at once', async () => {
    const u = await createUser(t.app.ctx.db);
    const ip = randomIp();
    const { signIn } = await import('./helpers/factories');
    const cookie = await signIn(t.app, u.email, u.password, { remoteAddress: ip });
    const responses = await Promise.all(
      Array.from({ length: 60 }, () =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/auth/password',
          payload: { currentPassword: 'Wrong-password-123', newPassword: 'Another-Good-Passw0rd' },
          headers: { cookie },
          remoteAddress: ip,
        }),
      ),
    );
    expect(statuses(responses)).toEqual({ 400: MAX_FAILURES_PER_ACCOUNT_IP, 429: 60 - MAX_FAILURES_PER_ACCOUNT_IP });
  });

  it('does not count successful sign-ins against the account or the address', async () => {
    const u = await createUser(t.app.ctx.db);
    const ip = randomIp();
    for (let i = 0; i < MAX_FAILURES_PER_IP + 5; i++) expect((await login(u.email, u.password, ip)).statusCode).toBe(200);
  });
});

describe('addresses', () => {
  it('counts an IPv6 client by its /64', async () => {
    const limiter = new LoginLimiter(new MemoryCounterStore());
    for (let i = 0; i < MAX_FAILURES_PER_IP; i++) await limiter.attempt(`u${i}@example.com`, `2001:db8:aa:bb::${i.toString(16)}`);
    await expect(limiter.attempt('x@example.com', '2001:db8:aa:bb:ffff::1')).rejects.toMatchObject({ code: 'resource-exhausted' });
    await expect(limiter.attempt('x@example.com', '2001:db8:aa:bc::1')).resolves.toBeUndefined();
  });
});

describe('the lockout ends on its own', () => {
  afterEach(() => vi.useRealTimers());

  it('lets the account in again once the window has passed', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const limiter = new LoginLimiter(new MemoryCounterStore());
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT; i++) await limiter.attempt('a@example.com', `10.0.0.${i}`);
    await expect(limiter.attempt('a@example.com', '10.9.9.9')).rejects.toMatchObject({ code: 'resource-exhausted' });
    vi.setSystemTime(Date.now() + LOGIN_WINDOW_MS + 1000);
    await expect(limiter.attempt('a@example.com', '10.9.9.9')).resolves.toBeUndefined();
  });
});

describe('forgot-password and register rate limits', () => {
  const forgot = (email: string, ip: string) =>
    t.app.inject({ method: 'POST', url: '/api/v1/auth/forgot-password', payload: { email }, remoteAddress: ip });

  it(`allows ${FORGOT_PER_EMAIL.max} reset requests per address in the window, from any IPs`, async () => {
    const email = uniqueEmail('flood');
    for (let i = 0; i < FORGOT_PER_EMAIL.max; i++) expect((await forgot(email, randomIp())).statusCode).toBe(200);
    const res = await forgot(email, randomIp());
    expect(res.statusCode).toBe(429);
    expect(res.json().error).toMatchObject({ status: 'RESOURCE_EXHAUSTED', key: 'errors.tooManyRequests' });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    // The e-mail is compared ignoring case.
    expect((await forgot(email.toUpperCase(), randomIp())).statusCode).toBe(429);
  });

  it(`allows ${FORGOT_PER_IP.max} reset requests per IP in the window`, async () => {
    const ip = randomIp();
    for (let i = 0; i < FORGOT_PER_IP.max; i++) expect((await forgot(uniqueEmail(), ip)).statusCode).toBe(200);
    const res = await forgot(uniqueEmail(), ip);
    expect(res.statusCode).toBe(429);
    expect(res.json().error.status).toBe('RESOURCE_EXHAUSTED');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  it(`allows ${REGISTER_PER_IP.max} registration attempts per IP in the window`, async () => {
    const ip = randomIp();
    for (let i = 0; i < REGISTER_PER_IP.max; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/register', payload: {}, remoteAddress: ip });
      expect(res.statusCode).toBe(400);
    }
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/register', payload: {}, remoteAddress: ip });
    expect(res.statusCode).toBe(429);
    expect(res.json().error.status).toBe('RESOURCE_EXHAUSTED');
  });
});
