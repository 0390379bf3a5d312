/**
 * /readyz reports each dependency separately: the database, Redis (only when REDIS_URL is set) and the
 * outbox. A dead Redis makes it 503; a stuck or failing outbox is "degraded" but stays 200. /healthz touches
 * nothing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/app';
import { freePort } from './helpers/free-port';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('/readyz components', () => {
  it('answers ok with the database and an empty outbox, and no redis entry without REDIS_URL', async () => {
    const res = await t.app.inject('/readyz');
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
    const res = await t.app.inject('/readyz');
    expect(res.statusCode).toBe(200);
    const { status, components } = res.json();
    expect(status).toBe('ok');
    expect(components.outbox).toMatchObject({ status: 'degraded', depth: 2, retrying: 1, failedLastDay: 0 });
    expect(components.outbox.oldestQueuedSeconds).toBeGreaterThanOrEqual(3600);

    await t.app.ctx.db.execute(sql`UPDATE mail_outbox SET status = 'sent'`);
    expect((await t.app.inject('/readyz')).json().components.outbox.status).toBe('ok');
    await t.app.ctx.db.execute(sql`
      INSERT INTO mail_outbox (kind, recipient, subject, text_body, status, attempts)
      VALUES ('test', 'd@example.com', 's', 't', 'failed', 6)`);
    const failed = (await t.app.inject('/readyz')).json().components.outbox;
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
    const r = await buildTestApp({ REDIS_URL: `redis://127.0.0.1:${port}` });
    try {
      await new Promise((res) => setTimeout(res, 100));
      let up = await r.app.inject('/readyz');
      for (let i = 0; i < 50 && up.statusCode !== 200; i++) {
        await new Promise((res) => setTimeout(res, 50));
        up = await r.app.inject('/readyz');
      }
      expect(up.statusCode).toBe(200);
      expect(up.json().components.redis).toEqual({ status: 'ok' });

      const exited = new Promise((res) => redis.once('exit', res));
      redis.kill('SIGKILL');
      await exited;
      let down = await r.app.inject('/readyz');
      for (let i = 0; i < 50 && down.statusCode === 200; i++) {
        await new Promise((res) => setTimeout(res, 50));
        down = await r.app.inject('/readyz');
      }
      expect(down.statusCode).toBe(503);
      expect(down.json()).toMatchObject({
        status: 'unavailable',
        components: { database: { status: 'ok' }, redis: { status: 'unavailable' } },
      });

      redis = await startRedis(port);
      let back = await r.app.inject('/readyz');
      for (let i = 0; i < 100 && back.statusCode !== 200; i++) {
        await new Promise((res) => setTimeout(res, 100));
        back = await r.app.inject('/readyz');
      }
      expect(back.statusCode).toBe(200);
    } finally {
      await r.close();
      redis.kill('SIGKILL');
    }
  });
});
