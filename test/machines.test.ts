/** Test benches and their keys: shown once, stored hashed, rotated, disabled, deleted or disabled instead. */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MACHINE_KEY_RE } from '../src/shared/contract/machines';
import { auditLog, machines } from '../src/server/db/schema/index';
import { hashKey } from '../src/server/modules/machines/machine-keys';
import { buildTestApp, type TestApp } from './helpers/app';
import { staffCookie } from './helpers/catalogue';
import { adminCookie, createBench, postBatch, record } from './helpers/machine-data';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await adminCookie(t);
});
afterAll(() => t.close());

const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: { cookie: admin }, ...(payload !== undefined ? { payload: payload as object } : {}) });
const ok = async (key: string) => (await postBatch(t.app, key, { records: [record()] })).statusCode;

describe('benches', () => {
  it('shows a key once, stores only its hash and a visible prefix', async () => {
    const res = await api('POST', '/api/v1/machines', { name: '  Bench A1 ' });
    expect(res.statusCode).toBe(201);
    const { machine, key } = res.json().data;
    expect(key).toMatch(MACHINE_KEY_RE);
    expect(machine).toMatchObject({ name: 'Bench A1', keyPrefix: key.slice(0, 13), disabled: false, lastUsedAt: null, recordCount: 0 });
    expect(machine.keyPrefix).toMatch(/^trc_live_.{4}$/);
    const [row] = await t.app.ctx.db.select().from(machines).where(eq(machines.id, machine.id));
    expect(row!.keyHash.equals(hashKey(key))).toBe(true);
    const list = await api('GET', '/api/v1/machines?q=a1');
    expect(list.json().data.total).toBe(1);
    expect(list.body).not.toContain(key);
    expect(JSON.stringify(list.json().data.items[0])).not.toContain(key.slice(13));
  });

  it('refuses a name taken in another case, an empty name and an unknown bench', async () => {
    await createBench(t.app, admin, 'Bench Unique');
    const taken = await api('POST', '/api/v1/machines', { name: 'BENCH unique' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.key).toBe('machineData.machineNameTaken');
    const empty = await api('POST', '/api/v1/machines', { name: ' ' });
    expect(empty.json().error.fields).toEqual([expect.objectContaining({ field: 'name', key: 'validation.required' })]);
    expect((await api('PATCH', '/api/v1/machines/nope', { name: 'x' })).statusCode).toBe(404);
    expect((await api('POST', `/api/v1/machines/${crypto.randomUUID()}/rotate-key`)).statusCode).toBe(404);
    expect((await api('DELETE', `/api/v1/machines/${crypto.randomUUID()}`)).statusCode).toBe(404);
    expect((await api('PATCH', `/api/v1/machines/${crypto.randomUUID()}`, {})).statusCode).toBe(400);
  });

  it('answers a wrong, missing, malformed or disabled key alike with 401', async () => {
    const bench = await createBench(t.app, admin);
    const wrongKey = bench.key.slice(0, -2) + (bench.key.endsWith('AA') ? 'BB' : 'AA');
    const answers = await Promise.all([
      postBatch(t.app, wrongKey, { records: [] }),
      postBatch(t.app, null, { records: [] }),
      postBatch(t.app, 'not-a-key', { records: [] }),
      postBatch(t.app, null, { records: [] }, { authorization: `Basic ${bench.key}` }),
    ]);
    await api('PATCH', `/api/v1/machines/${bench.id}`, { disabled: true });
    answers.push(await postBatch(t.app, bench.key, { records: [] }));
    for (const res of answers) {
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.json().error).toMatchObject({ status: 'UNAUTHENTICATED', key: 'machineData.invalidKey' });
    }
    expect(new Set(answers.map((r) => r.json().error.message)).size).toBe(1);
    // Enabled again, the same key works at once.
    expect((await api('PATCH', `/api/v1/machines/${bench.id}`, { disabled: false })).json().data.disabled).toBe(false);
    expect(await ok(bench.key)).toBe(200);
  });

  it('ignores cookies on the bench route, and no CSRF rule stops a bearer request', async () => {
    const noKey = await postBatch(t.app, null, { records: [] }, { cookie: admin });
    expect(noKey.statusCode).toBe(401);
    const bench = await createBench(t.app, admin);
    const crossSite = await postBatch(
      t.app,
      bench.key,
      { records: [] },
      { origin: 'https://elsewhere.example', 'sec-fetch-site': 'cross-site' },
    );
    expect(crossSite.statusCode).toBe(200);
    // The session route itself still refuses cross-site requests: the exception is the bench route only.
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/v1/machines',
      headers: { cookie: admin, origin: 'https://elsewhere.example' },
      payload: { name: 'x' },
    });
    expect(other.statusCode).toBe(403);
  });

  it('rotating a key stops the old one at once', async () => {
    const bench = await createBench(t.app, admin);
    expect(await ok(bench.key)).toBe(200);
    const res = await api('POST', `/api/v1/machines/${bench.id}/rotate-key`);
    expect(res.statusCode).toBe(200);
    const { machine, key } = res.json().data;
    expect(key).not.toBe(bench.key);
    expect(machine.keyPrefix).toBe(key.slice(0, 13));
    expect(await ok(bench.key)).toBe(401);
    expect(await ok(key)).toBe(200);
  });

  it('deletes a bench without records; one with records is disabled instead and says why', async () => {
    const empty = await createBench(t.app, admin);
    const gone = await api('DELETE', `/api/v1/machines/${empty.id}`);
    expect(gone.json()).toMatchObject({ data: { outcome: 'deleted' }, messageKey: 'machineData.machineDeleted' });
    expect(await ok(empty.key)).toBe(401);
    expect((await api('PATCH', `/api/v1/machines/${empty.id}`, { name: 'back' })).statusCode).toBe(404);

    const used = await createBench(t.app, admin);
    expect((await postBatch(t.app, used.key, { records: [record(), record()] })).json().data.stored).toBe(2);
    const kept = await api('DELETE', `/api/v1/machines/${used.id}`);
    expect(kept.json()).toMatchObject({
      data: { outcome: 'disabled', recordCount: 2 },
      messageKey: 'machineData.disabledNotDeleted',
      message: 'This test bench has sent 2 records, so it was disabled instead of deleted',
    });
    expect(await ok(used.key)).toBe(401);
    const listed = (await api('GET', '/api/v1/machines?pageSize=all')).json().data.items.find((m: { id: string }) => m.id === used.id);
    expect(listed).toMatchObject({ disabled: true, recordCount: 2 });
    expect(listed.lastUsedAt).not.toBeNull();
  });

  it('a delete racing a batch never leaves records of a deleted bench', async () => {
    for (let i = 0; i < 3; i++) {
      const bench = await createBench(t.app, admin);
      const batch = Array.from({ length: 300 }, () => record());
      const [posted, del] = await Promise.all([
        postBatch(t.app, bench.key, { records: batch }),
        api('DELETE', `/api/v1/machines/${bench.id}`),
      ]);
      const [row] = await t.app.ctx.db.select().from(machines).where(eq(machines.id, bench.id));
      if (del.json().data.outcome === 'deleted') {
        expect(row).toBeUndefined();
        expect(posted.statusCode).toBe(401);
      } else {
        expect(posted.json().data.stored).toBe(300);
        expect(row).toMatchObject({ recordCount: 300 });
        expect(row!.disabledAt).not.toBeNull();
      }
    }
  });

  it('audits every change without the key or its hash', async () => {
    const bench = await createBench(t.app, admin, 'Audited Bench');
    await api('PATCH', `/api/v1/machines/${bench.id}`, { name: 'Audited Bench 2' });
    await api('PATCH', `/api/v1/machines/${bench.id}`, { disabled: true });
    const rotated = (await api('POST', `/api/v1/machines/${bench.id}/rotate-key`)).json().data.key as string;
    await api('DELETE', `/api/v1/machines/${bench.id}`);
    const rows = await t.app.ctx.db.select().from(auditLog).where(eq(auditLog.entityId, bench.id)).orderBy(auditLog.id);
    expect(rows.map((r) => r.action)).toEqual(['create', 'update', 'disable', 'rotate-key', 'delete']);
    const text = JSON.stringify(rows);
    for (const key of [bench.key, rotated]) {
      expect(text).not.toContain(key.slice(9));
      expect(text).not.toContain(hashKey(key).toString('hex'));
      expect(text).not.toContain(hashKey(key).toString('base64'));
    }
    expect(rows[1]!.after).toMatchObject({ name: 'Audited Bench 2' });
  });

  it('keeps benches to admins: staff get 403', async () => {
    const staff = await staffCookie(t);
    const res = await t.app.inject({ url: '/api/v1/machines', headers: { cookie: staff } });
    expect(res.statusCode).toBe(403);
  });
});
