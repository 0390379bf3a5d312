/**
 * A Searches filter the planner expects to match more than TOTAL_COUNT_LIMIT requests is not counted: its
 * page is walked newest (or oldest) first and its total is the estimate, labelled so (searches.list.ts,
 * docs/decisions/0030-lists-at-a-year.md). Its pages must be the same rows in the same order as a counted
 * filter's: checked here against the order worked out from the generator, for part of an address matching
 * two thirds of 18,000 requests, and for a rare part counted exactly.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOTAL_COUNT_LIMIT } from '../src/shared/contract/machine-data';
import { buildTestApp, type TestApp } from './helpers/app';
import { staffCookie } from './helpers/catalogue';

const N = 18_000;
let t: TestApp;
let admin: string;

const gid = (g: number) => `00000000-0000-4000-8000-${String(g).padStart(12, '0')}`;
const emailOf = (g: number) => (g % 3 === 0 ? `rare${g}@example.org` : `common${g}@example.com`);
/** The requests whose address holds `part`, oldest first (created_at grows with g). */
const matching = (part: string) => Array.from({ length: N }, (_, i) => i + 1).filter((g) => emailOf(g).includes(part));

const list = async (query: string) => {
  const res = await t.app.inject({ url: `/api/v1/search-requests?${query}`, headers: { cookie: admin } });
  expect(res.statusCode).toBe(200);
  return res.json().data as {
    items: { id: string; recipientEmail: string; serials: unknown[] }[];
    total: number;
    totalEstimated?: boolean;
  };
};

beforeAll(async () => {
  t = await buildTestApp();
  admin = await staffCookie(t, { role: 'admin' });
  // One request a second; every tenth of two serials (two rows of one group).
  await t.app.ctx.db.execute(sql`
    INSERT INTO search_requests (group_id, source, serial, recipient_email, language, status, created_at)
    SELECT ('00000000-0000-4000-8000-' || lpad(g::text, 12, '0'))::uuid, 'request', 'CF-' || g || '-' || k,
           CASE WHEN g % 3 = 0 THEN 'rare' || g || '@example.org' ELSE 'common' || g || '@example.com' END,
           'en', 'sent', timestamptz '2025-01-01T00:00:00Z' + g * interval '1 second'
      FROM generate_series(1, ${N}) g, generate_series(1, 2) k
     WHERE k = 1 OR g % 10 = 0`);
  await t.app.ctx.db.execute(sql`ANALYZE search_requests`);
});
afterAll(() => t.close());

describe('a common Searches filter', () => {
  it('pages newest first, each request once with its serials, its total an estimate above the limit', async () => {
    const want = matching('common').reverse();
    expect(want.length).toBeGreaterThan(TOTAL_COUNT_LIMIT);
    const got: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await list(`email=common&pageSize=25&page=${page}`);
      expect(res.totalEstimated).toBe(true);
      expect(res.total).toBeGreaterThan(TOTAL_COUNT_LIMIT);
      got.push(...res.items.map((i) => i.id));
      for (const item of res.items) expect(item.recipientEmail).toContain('common');
      const tenth = res.items.find((i) => i.id === gid(want.find((g) => g % 10 === 0)!));
      if (tenth) expect(tenth.serials).toHaveLength(2);
    }
    expect(got).toEqual(want.slice(0, 75).map(gid));
  });

  it('pages oldest first, and a deep page inside and beyond the limit', async () => {
    const want = matching('common');
    expect((await list('email=common&order=asc&pageSize=10')).items.map((i) => i.id)).toEqual(want.slice(0, 10).map(gid));
    const desc = [...want].reverse();
    expect((await list('email=common&pageSize=100&page=100')).items.map((i) => i.id)).toEqual(desc.slice(9900, 10000).map(gid));
    expect((await list('email=common&pageSize=100&page=101')).items.map((i) => i.id)).toEqual(desc.slice(10000, 10100).map(gid));
  });

  it('counts a rare part of an address exactly', async () => {
    const want = matching('rare17').reverse();
    const res = await list('email=rare17&pageSize=10');
    expect(res).toMatchObject({ total: want.length });
    expect(res).not.toHaveProperty('totalEstimated');
    expect(res.items.map((i) => i.id)).toEqual(want.slice(0, 10).map(gid));
  });
});
