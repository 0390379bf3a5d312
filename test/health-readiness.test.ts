/**
 * /readyz reports each dependency separately: the database, Redis (only when REDIS_URL is set) and the
 * outbox. A dead Redis makes it 503; a stuck or failing outbox is "degraded" but stays 200. /healthz touches
 * nothing. The report is the operator's: with METRICS_TOKEN, or to a signed-in user on a staff host name;
 * anyone else gets the status alone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/server/db/client';
import { buildTestApp, type TestApp } from './helpers/app';
import { staffCookie } from './helpers/catalogue';
import { freePort } from './helpers/free-port';

const TOKEN = 'readiness-token-0123456789';
const operator = { authorization: `Bearer ${TOKEN}` };

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ METRICS_TOKEN: TOKEN });
});
afterAll(() => t.close());

/** /readyz as the operator's monitor asks for it. */
const readyz = (app = t.app) => app.inject({ url: '/readyz', headers: operator });

describe('/readyz callers', () => {
  it('anyone without the token: the status alone, on staff and report host names, whatever the outbox holds', async () => {
    await t.app.ctx.db.execute(sql`
      INSERT INTO mail_outbox (kind, recipient, subject, text_body, status, attempts)
      VALUES ('test', 'e@example.com', 's', 't', 'failed', 6)`);
    try {
      const cookie = await staffCookie(t);
      const callers: { name: string; headers: Record<string, string> }[] = [
        { name: 'anonymous', headers: {} },
        { name: 'anonymous on a report host', headers: { host: 'report.example.com' } },
        { name: 'a wrong token', headers: { authorization: `Bearer ${TOKEN.slice(1)}x` } },
        { name: 'a signed-in user on a report host', headers: { host: 'report.example.com', cookie } },
        { name: 'an unknown session', headers: { cookie: 'trc_session=not-a-session' } },
      ];
      for (const { name, headers } of callers) {
        const res = await t.app.inject({ url: '/readyz', headers });
        expect(res.statusCode, name).toBe(200);
        expect(res.json(), name).toEqual({ status: 'ok' });
        expect(res.headers['cache-control'], name).toBe('no-store');
      }
    } finally {
      await t.app.ctx.db.execute(sql`DELETE FROM mail_outbox`);
    }
  });

  it('the metrics token, on any host name, and a signed-in user on a staff host name: each component', async () => {
    const cookie = await staffCookie(t);
    const callers: { name: string; headers: Record<string, string> }[] = [
      { name: 'the token', headers: operator },
      { name: 'the token on a report host', headers: { ...operator, host: 'report.example.com' } },
      { name: 'a staff session', headers: { cookie } },
      { name: 'a staff session on a staff host', headers: { cookie, host: 'staff.example.com' } },
    ];
    for (const { name, headers } of callers) {
      const res = await t.app.inject({ url: '/readyz', headers });
      expect(res.statusCode, name).toBe(200);
      expect(res.json().components, name).toMatchObject({ database: { status: 'ok' }, outbox: { status: 'ok', depth: 0 } });
    }
  });

  it('503 without the token is the status alone too: no pending migration named', async () => {
    // The last migration's row under another name: that migration is pending.
    const [last] = rowsOf<{ name: string }>(await t.app.ctx.db.execute(sql`SELECT name FROM schema_migrations ORDER BY name DESC LIMIT 1`));
    const aside = `${last!.name}.aside`;
    await t.app.ctx.db.execute(sql`UPDATE schema_migrations SET name = ${aside} WHERE name = ${last!.name}`);
    try {
      for (const host of ['localhost', 'report.example.com']) {
        const res = await t.app.inject({ url: '/readyz', headers: { host } });
        expect(res.statusCode, host).toBe(503);
        expect(res.json(), host).toEqual({ status: 'unavailable' });
      }
      const told = await readyz();
      expect(told.statusCode).toBe(503);
      expect(told.json()).toMatchObject({
        status: 'unavailable',
        components: { database: { status: 'unavailable', pending: [last!.name] } },
      });
    } finally {
      await t.app.ctx.db.execute(sql`UPDATE schema_migrations SET name = ${last!.name} WHERE name = ${aside}`);
    }
    expect((await t.app.inject('/readyz')).statusCode).toBe(200);
  });

  it('without METRICS_TOKEN set, a bearer header opens nothing; a staff session still does', async () => {
    const bare = await buildTestApp();
    try {
      expect((await bare.app.inject({ url: '/readyz', headers: { authorization: 'Bearer ' } })).json()).toEqual({ status: 'ok' });
      const cookie = await staffCookie(bare);
      expect((await bare.app.inject({ url: '/readyz', headers: { cookie } })).json().components.database.status).toBe('ok');
    } finally {
      await bare.close();
    }
  });
});

describe('/readyz components', () => {
  it('answers ok with the database and an empty outbox, and no redis entry without REDIS_URL', async () => {
    const res = await readyz();
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      status: 'ok',
      components: {
        database: { status: 'ok', kind: t.testDb.database.kind },
        outbox: { status: 'ok', depth: 0, oldestQueuedSeconds: 0, retrying: 0, failedLastDay: 0 },
      },
    });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('reports a queued, retried and given-up message; an old one makes the outbox degraded, still 200', async () => {
    await t.app.ctx.db.execute(sql`
      INSERT INTO mail_outbox (kind, recipient, subject, text_body, status, attempts, created_at)
      VALUES ('test', 'a@example.com', 's', 't', 'queued', 0, now() - interval '1 hour'),
             ('test', 'b@example.com', 's', 't', 'queued', 2, now() - interval '1 minute'),
             ('test', 'c@example.com', 's', 't', 'sent', 1, now() - interval '2 hours')`);
    const res = await readyz();
    expect(res.statusCode).toBe(200);
    const { status, components } = res.json();
    expect(status).toBe('ok');
    expect(components.outbox).toMatchObject({ status: 'degraded', depth: 2, retrying: 1, failedLastDay: 0 });
    expect(components.outbox.oldestQueuedSeconds).toBeGreaterThanOrEqual(3600);

    await t.app.ctx.db.execute(sql`UPDATE mail_outbox SET status = 'sent'`);
    expect((await readyz()).json().components.outbox.status).toBe('ok');
    await t.app.ctx.db.execute(sql`
      INSERT INTO mail_outbox (kind, recipient, subject, text_body, status, attempts)
      VALUES ('test', 'd@example.com', 's', 't', 'failed', 6)`);
    const failed = (await readyz()).json().components.outbox;
    expect(failed).toMatchObject({ status: 'degraded', depth: 0, failedLastDay: 1 });
    await t.app.ctx.db.execute(sql`DELETE FROM mail_outbox`);
  });

  it('/healthz stays a bare liveness answer', async () => {
    const res = await t.app.inject('/healthz');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });
});

async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const c = net.connect(port, '127.0.0.1', () => {
        c.end();
        resolve(true);
      });
      c.on('error', () => resolve(false));
    });
    if (up) return child;
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill();
  throw new Error('redis-server did not start');
}

const hasRedisServer = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].some((p) => fs.existsSync(p));

describe.runIf(hasRedisServer)('/readyz with Redis', () => {
  it('lists redis as ok while it runs and answers 503 once it stops', async () => {
    const port = await freePort();
    let redis = await startRedis(port);
    const r = await buildTestApp({ REDIS_URL: `redis://127.0.0.1:${port}`, METRICS_TOKEN: TOKEN });
    try {
      await new Promise((res) => setTimeout(res, 100));
      let up = await readyz(r.app);
      for (let i = 0; i < 50 && up.statusCode !== 200; i++) {
        await new Promise((res) => setTimeout(res, 50));
        up = await readyz(r.app);
      }
      expect(up.statusCode).toBe(200);
      expect(up.json().components.redis).toEqual({ status: 'ok' });

      const exited = new Promise((res) => redis.once('exit', res));
      redis.kill('SIGKILL');
      await exited;
      let down = await readyz(r.app);
      for (let i = 0; i < 50 && down.statusCode === 200; i++) {
        await new Promise((res) => setTimeout(res, 50));
        down = await readyz(r.app);
      }
      expect(down.statusCode).toBe(503);
      expect(down.json()).toMatchObject({
        status: 'unavailable',
        components: { database: { status: 'ok' }, redis: { status: 'unavailable' } },
      });

      redis = await startRedis(port);
      let back = await readyz(r.app);
      for (let i = 0; i < 100 && back.statusCode !== 200; i++) {
        await new Promise((res) => setTimeout(res, 100));
        back = await readyz(r.app);
      }
      expect(back.statusCode).toBe(200);
    } finally {
      await r.close();
      redis.kill('SIGKILL');
    }
  });
});
