/**
 * The Searches list's total at scale: exact from the kept day counts without a filter or with dates only,
 * counted exactly up to TOTAL_COUNT_LIMIT requests under other filters, and estimated (and said so) beyond.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOTAL_COUNT_LIMIT } from '../src/shared/contract/machine-data';
import { buildTestApp, type TestApp } from './helpers/app';
import { staffCookie } from './helpers/catalogue';

let t: TestApp;
let admin: string;

const list = async (query: string) => {
  const res = await t.app.inject({ url: `/api/v1/search-requests?${query}`, headers: { cookie: admin } });
  expect(res.statusCode).toBe(200);
  return res.json().data as { items: { id: string; createdAt: string; serials: unknown[] }[]; total: number; totalEstimated?: boolean };
};

beforeAll(async () => {
  t = await buildTestApp();
  admin = await staffCookie(t, { role: 'admin' });
  // TOTAL_COUNT_LIMIT + 500 sent requests of one serial each over May 2024 (one statement: the day counts'
  // trigger sees them as one batch), and 40 held requests of two serials each on June 1.
  await t.app.ctx.db.execute(sql`
    INSERT INTO search_requests (group_id, source, serial, recipient_email, language, status, created_at)
    SELECT gen_random_uuid(), 'request', 'TOT-' || g, 'r' || g || '@example.com', 'en', 'sent',
           timestamptz '2024-05-01T00:00:00Z' + (g % 31) * interval '1 day' + g * interval '1 second'
      FROM generate_series(1, ${TOTAL_COUNT_LIMIT + 500}) g`);
  await t.app.ctx.db.execute(sql`
    INSERT INTO search_requests (group_id, source, serial, recipient_email, language, status, created_at)
    SELECT ('00000000-0000-4000-8000-' || lpad(g::text, 12, '0'))::uuid, 'request', 'HELD-' || g || '-' || k,
           'h' || g || '@example.com', 'zh', 'held', timestamptz '2024-06-01T08:00:00Z' + g * interval '1 minute'
      FROM generate_series(1, 40) g, generate_series(1, 2) k`);
  await t.app.ctx.db.execute(sql`ANALYZE search_requests`);
});
afterAll(() => t.close());

describe('the Searches list total', () => {
  it('is exact without a filter and with dates only, read from the kept day counts', async () => {
    const all = await list('pageSize=10');
    expect(all.total).toBe(TOTAL_COUNT_LIMIT + 540);
    expect(all).not.toHaveProperty('totalEstimated');
    expect(all.items).toHaveLength(10);
    const june = await list('from=2024-06-01&to=2024-06-30');
    expect(june).toMatchObject({ total: 40 });
    expect(june).not.toHaveProperty('totalEstimated');
    // May 1 holds the requests with g % 31 = 0.
    const may1 = await list('from=2024-05-01&to=2024-05-01');
    expect(may1.total).toBe(Math.floor((TOTAL_COUNT_LIMIT + 500) / 31));
  });

  it('counts a filter exactly up to the limit, a request of several serials once', async () => {
    const held = await list('status=held');
    expect(held).toMatchObject({ total: 40 });
    expect(held).not.toHaveProperty('totalEstimated');
    expect((await list('serial=TOT-1234')).total).toBe(1);
  });

  it('estimates a larger filtered total and labels it so', async () => {
    const sent = await list('status=sent&pageSize=25');
    expect(sent.totalEstimated).toBe(true);
    // The planner's figure, never below what was counted.
    expect(sent.total).toBeGreaterThan(TOTAL_COUNT_LIMIT);
    expect(sent.items).toHaveLength(25);
  });

  it('pages a counted filter in either order from one walk, each request once with its serials', async () => {
    const gid = (g: number) => `00000000-0000-4000-8000-${String(g).padStart(12, '0')}`;
    const range = (from: number, to: number) =>
      Array.from({ length: Math.abs(to - from) + 1 }, (_, i) => (from < to ? from + i : from - i));
    const desc = await list('status=held&pageSize=10&page=2');
    expect(desc.items.map((i) => i.id)).toEqual(range(30, 21).map(gid));
    expect(desc.items[0]!.serials).toHaveLength(2);
    expect(desc.total).toBe(40);
    expect((await list('status=held&pageSize=10&page=4&order=asc')).items.map((i) => i.id)).toEqual(range(31, 40).map(gid));
    expect(await list('status=held&pageSize=10&page=5')).toMatchObject({ items: [], total: 40 });
    // A serial substring (the trigram index): HELD-1-*, HELD-10-* … HELD-19-*.
    const sub = await list('q=held-1&order=asc&pageSize=5');
    expect(sub.items.map((i) => i.id)).toEqual([1, 10, 11, 12, 13].map(gid));
    expect(sub.total).toBe(11);
  });

  it('pages past the counted walk as before: the last page inside it and the first beyond join up', async () => {
    const inside = await list('status=sent&pageSize=100&page=100');
    const beyond = await list('status=sent&pageSize=100&page=101');
    expect(inside.items).toHaveLength(100);
    expect(beyond.items).toHaveLength(100);
    expect(beyond.totalEstimated).toBe(true);
    const ids = new Set([...inside.items, ...beyond.items].map((i) => i.id));
    expect(ids.size).toBe(200);
    expect(inside.items.at(-1)!.createdAt >= beyond.items[0]!.createdAt).toBe(true);
  });
});
