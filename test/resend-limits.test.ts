/**
 * Staff resends are limited per request and per staff member (src/server/modules/public/resend-limits.ts):
 * past either, 429 with Retry-After and a message in the user's language that names the limit; only accepted
 * resends count.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mailOutbox, searchRequests } from '../src/server/db/schema/index';
import { RESEND_LIMITS } from '../src/server/modules/public/resend-limits';
import { buildTestApp, type TestApp } from './helpers/app';
import { ORIGIN, staffCookie } from './helpers/catalogue';
import { catalogue, postRequest, requestBody, testData } from './helpers/public';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const resend = (id: string, cookie: string) =>
  t.app.inject({ method: 'POST', url: `/api/v1/search-requests/${id}/resend`, headers: { cookie, origin: ORIGIN } });

/** Marks every queued report email of the request as sent, as the worker would: a resend may follow. */
async function markSent(groupId: string) {
  const db = t.app.ctx.db;
  const rows = await db
    .select({ outboxId: searchRequests.outboxId })
    .from(searchRequests)
    .where(and(eq(searchRequests.groupId, groupId), eq(searchRequests.status, 'queued')));
  for (const { outboxId } of rows) {
    await db.update(mailOutbox).set({ status: 'sent', attempts: 1, sentAt: new Date() }).where(eq(mailOutbox.id, outboxId!));
    await db.update(searchRequests).set({ status: 'sent', attempts: 1, sentAt: new Date() }).where(eq(searchRequests.outboxId, outboxId!));
  }
}

/** A real request with an issued report whose email went out. */
async function sentRequest(): Promise<string> {
  const c = await catalogue(t);
  await testData(t, c.serial(1));
  const res = await postRequest(t.app, requestBody({ serial: c.serial(1) }));
  expect(res.statusCode, res.body).toBe(200);
  const groupId = res.json().data.requestId as string;
  await markSent(groupId);
  return groupId;
}

describe('resend limits', () => {
  it(`per request: ${RESEND_LIMITS.perRequest.max} resends an hour, whoever asks; then 429 in the user's language`, async () => {
    const groupId = await sentRequest();
    const en = await staffCookie(t);
    const zh = await staffCookie(t, { language: 'zh' });
    for (let i = 0; i < RESEND_LIMITS.perRequest.max; i++) {
      expect((await resend(groupId, i % 2 ? zh : en)).statusCode).toBe(200);
      await markSent(groupId);
    }
    const over = await resend(groupId, en);
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(60);
    expect(over.json().error.key).toBe('searches.resendLimitRequest');
    expect(over.json().error.message).toMatch(
      new RegExp(`sent again ${RESEND_LIMITS.perRequest.max} times in the last hour; try again in \\d+ minutes`),
    );
    const overZh = await resend(groupId, zh);
    expect(overZh.statusCode).toBe(429);
    expect(overZh.json().error.message).toMatch(/已重新寄送 3 次，請於 \d+ 分鐘後再試/);
    // Still one email per accepted resend: the first and three more.
    const mails = await t.app.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'test-report'));
    expect(mails.filter((m) => m.ref.searchRequestGroupId === groupId)).toHaveLength(1 + RESEND_LIMITS.perRequest.max);
  });

  it('per staff member: across requests, then 429 naming that limit; another staff member may still resend', async () => {
    const max = RESEND_LIMITS.perStaff.max;
    RESEND_LIMITS.perStaff.max = 2;
    try {
      const busy = await staffCookie(t);
      const [a, b, c] = [await sentRequest(), await sentRequest(), await sentRequest()];
      expect((await resend(a, busy)).statusCode).toBe(200);
      expect((await resend(b, busy)).statusCode).toBe(200);
      const over = await resend(c, busy);
      expect(over.statusCode).toBe(429);
      expect(over.json().error.key).toBe('searches.resendLimitStaff');
      expect(over.json().error.message).toMatch(/^You have sent report emails again 2 times in the last hour/);
      expect((await resend(c, await staffCookie(t))).statusCode).toBe(200);
    } finally {
      RESEND_LIMITS.perStaff.max = max;
    }
  });

  it('counts only accepted resends: refused ones (409, email still on its way) spend nothing', async () => {
    const groupId = await sentRequest();
    const cookie = await staffCookie(t);
    expect((await resend(groupId, cookie)).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) expect((await resend(groupId, cookie)).statusCode).toBe(409);
    await markSent(groupId);
    expect((await resend(groupId, cookie)).statusCode).toBe(200);
  });
});
