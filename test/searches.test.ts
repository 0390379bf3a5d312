/**
 * Searches for staff: the list's filters, the masking of visitors' addresses (staff never get
 * the full address, by any parameter, in the list, the detail or the CSV), the resend (a new outbox
 * message, the request following it, the audit naming who; 50 at once make one email), and the retention
 * job (old requests lose their address and IP and nothing else; other rows stay as they were).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, mailOutbox, searchRequests, type NewSearchRequest } from '../src/server/db/schema/index';
import { enqueueMail } from '../src/server/mail/outbox';
import { applySearchRetention } from '../src/server/modules/public/search-retention';
import { maskEmail } from '../src/server/lib/email-address';
import { insertSearchRequests } from '../src/server/modules/public/searches.repo';
import { buildTestApp, type TestApp } from './helpers/app';
import { ORIGIN, staffCookie } from './helpers/catalogue';
import { catalogue, postRequest, requestBody, series, testData } from './helpers/public';

// Issuing real PDFs on a two-core machine shared with other work: generous timeouts.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let t: TestApp;
let staff: string;
let admin: string;

beforeAll(async () => {
  t = await buildTestApp();
  staff = await staffCookie(t);
  admin = await staffCookie(t, { role: 'admin' });
});
afterAll(async () => {
  await t.close();
});

const DAY = 86_400_000;
const get = (url: string, cookie: string | undefined) => t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const resend = (id: string, cookie: string) =>
  t.app.inject({ method: 'POST', url: `/api/v1/search-requests/${id}/resend`, headers: { cookie, origin: ORIGIN } });
const visitorEmail = () => `visitor.${randomBytes(4).toString('hex')}@example-mail.com`;

/** One request of `serials` (one row each) with the given status, written as the public module writes it. */
async function seed(o: {
  serials: string[];
  status?: NewSearchRequest['status'];
  email?: string | null;
  at?: Date;
  ip?: string | null;
  source?: 'lookup' | 'request';
}) {
  const groupId = randomUUID();
  const source = o.source ?? (o.email === null ? 'lookup' : 'request');
  const rows = await insertSearchRequests(
    t.app.ctx.db,
    o.serials.map((serial) => ({
      groupId,
      source,
      serial,
      recipientEmail: source === 'lookup' ? null : (o.email ?? visitorEmail()),
      language: 'en' as const,
      termsAgreedAt: source === 'lookup' ? null : (o.at ?? new Date()),
      termsVersion: source === 'lookup' ? null : 1,
      status: o.status ?? 'not-found',
      clientIp: o.ip === undefined ? '203.0.113.7' : o.ip,
      userAgent: 'Mozilla/5.0 (test)',
      ...(o.at ? { createdAt: o.at } : {}),
    })),
  );
  return { groupId, rows };
}

describe('the list', () => {
  it('is one item per request, newest first, and filters by status, date range, serial and email', async () => {
    const p = series();
    const mail = visitorEmail();
    const a = await seed({ serials: [`${p}000001`, `${p}000002`], status: 'held', email: mail, at: new Date('2030-01-10T10:00:00Z') });
    const b = await seed({ serials: [`${p}000003`], status: 'failed', at: new Date('2030-01-12T10:00:00Z') });
    const c = await seed({ serials: [`${p}000004`], email: null, at: new Date('2030-01-14T23:59:00Z') });

    const all = await get(`/api/v1/search-requests?q=${p}&pageSize=100`, admin);
    expect(all.statusCode).toBe(200);
    const data = all.json().data;
    expect(data.total).toBe(3);
    expect(data.items.map((i: { id: string }) => i.id)).toEqual([c.groupId, b.groupId, a.groupId]);
    const first = data.items[2];
    expect(first.serials.map((s: { serial: string }) => s.serial)).toEqual([`${p}000001`, `${p}000002`]);
    expect(first).toMatchObject({
      found: true,
      status: 'held',
      recipientEmail: mail,
      emailMasked: false,
      source: 'request',
      termsVersion: 1,
      canResend: false,
    });
    expect(data.items[0]).toMatchObject({ found: false, status: 'not-found', recipientEmail: null, source: 'lookup' });

    const ids = async (query: string) =>
      ((await get(`/api/v1/search-requests?serial=${p}&${query}`, admin)).json().data.items as { id: string }[]).map((i) => i.id);
    expect(await ids('status=failed')).toEqual([b.groupId]);
    expect(await ids('status=held')).toEqual([a.groupId]);
    expect(await ids('from=2030-01-11&to=2030-01-14')).toEqual([c.groupId, b.groupId]);
    expect(await ids('to=2030-01-10')).toEqual([a.groupId]);
    expect(await ids(`email=${mail.slice(0, 12)}`)).toEqual([a.groupId]);
    expect(await ids(`email=${mail.toUpperCase()}`)).toEqual([a.groupId]);
    expect(await ids('order=asc')).toEqual([a.groupId, b.groupId, c.groupId]);
    expect((await get(`/api/v1/search-requests?serial=${p}000002`, admin)).json().data.items.map((i: { id: string }) => i.id)).toEqual([
      a.groupId,
    ]);
    // `%` and `_` are letters, not wildcards
    expect((await get('/api/v1/search-requests?serial=%25', admin)).json().data.total).toBe(0);
  });

  it('answers 400 naming the field for bad filters, 401 signed out, and reads for staff', async () => {
    for (const q of ['status=lost', 'from=2030-02-30', 'to=yesterday', 'pageSize=7', `email=${'x'.repeat(300)}`]) {
      const res = await get(`/api/v1/search-requests?${q}`, admin);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error.fields?.[0]?.field ?? res.json().error.message).toBeTruthy();
    }
    expect((await get('/api/v1/search-requests', undefined)).statusCode).toBe(401);
    expect((await get('/api/v1/search-requests', staff)).statusCode).toBe(200);
    expect((await get('/api/v1/search-requests/not-a-uuid', staff)).statusCode).toBe(404);
    expect((await get(`/api/v1/search-requests/${randomUUID()}`, staff)).statusCode).toBe(404);
  });
});

describe('masking', () => {
  it('masks addresses like j***@e***.com', () => {
    expect(maskEmail('jane.doe@example.com')).toBe('j***@e***.com');
    expect(maskEmail('李@例子.中国')).toBe('李***@例***.中国');
    expect(maskEmail('a@localhost')).toBe('a***@l***');
  });

  it('staff never receive the full address: list, detail, CSV, with any parameter; admins do', async () => {
    const mail = visitorEmail();
    const p = series();
    const { groupId } = await seed({ serials: [`${p}000001`], status: 'sent', email: mail });
    const urls = [
      `/api/v1/search-requests?serial=${p}`,
      `/api/v1/search-requests?serial=${p}&full=true&masked=false&unmask=1`,
      `/api/v1/search-requests?email=${encodeURIComponent(mail)}`,
      `/api/v1/search-requests?q=${p}&pageSize=all`,
      `/api/v1/search-requests/${groupId}`,
      `/api/v1/search-requests/${groupId}?full=true`,
      `/api/v1/search-requests/export.csv?serial=${p}`,
      `/api/v1/search-requests/export.csv?email=${encodeURIComponent(mail)}&masked=false`,
    ];
    for (const url of urls) {
      const res = await get(url, staff);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).not.toContain(mail);
      expect(res.body, url).not.toContain('203.0.113.7');
      expect(res.body, url).toContain(maskEmail(mail));
    }
    const detail = (await get(`/api/v1/search-requests/${groupId}`, staff)).json().data;
    expect(detail).toMatchObject({ recipientEmail: 'v***@e***.com', emailMasked: true, clientIp: null });
    // Staff name a whole address or nothing: parts of one find nothing (no spelling it out letter by letter).
    for (const part of [mail.slice(0, 10), mail.slice(3), 'v', '@example-mail.com']) {
      expect((await get(`/api/v1/search-requests?email=${encodeURIComponent(part)}`, staff)).json().data.total, part).toBe(0);
    }
    for (const url of urls) expect((await get(url, admin)).body, url).toContain(mail);
    expect((await get(`/api/v1/search-requests/${groupId}`, admin)).json().data).toMatchObject({
      recipientEmail: mail,
      emailMasked: false,
      clientIp: '203.0.113.7',
    });
  });

  it('the CSV export holds what the list shows (the same filters), masked for staff', async () => {
    const p = series();
    const mail = visitorEmail();
    await seed({ serials: [`${p}000001`, `${p}000002`], status: 'held', email: mail });
    await seed({ serials: [`${p}000003`], status: 'not-found', email: null });
    const res = await get(`/api/v1/search-requests/export.csv?serial=${p}&status=held`, staff);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'createdAt,id,source,serials,found,recipientEmail,language,termsVersion,status,attempts,lastError,sentAt,reports',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`${p}000001 ${p}000002`);
    expect(lines[1]).toContain(maskEmail(mail));
    expect(lines[1]).toContain(',held,');
  });
});

describe('resend', () => {
  /** A real request with an issued report, its email then marked as sent (as the worker would). */
  async function sentRequest(): Promise<{ groupId: string; email: string; outboxId: string }> {
    const c = await catalogue(t);
    await testData(t, c.serial(1));
    const body = requestBody({ serials: [c.serial(1), c.serial(99)] });
    const res = await postRequest(t.app, body);
    expect(res.statusCode, res.body).toBe(200);
    const groupId = res.json().data.requestId as string;
    const [row] = await t.app.ctx.db
      .select()
      .from(searchRequests)
      .where(and(eq(searchRequests.groupId, groupId), eq(searchRequests.status, 'queued')));
    await markSent(row!.outboxId!);
    return { groupId, email: body.email as string, outboxId: row!.outboxId! };
  }

  async function markSent(outboxId: string) {
    const db = t.app.ctx.db;
    await db.update(mailOutbox).set({ status: 'sent', attempts: 1, sentAt: new Date() }).where(eq(mailOutbox.id, outboxId));
    await db.update(searchRequests).set({ status: 'sent', attempts: 1, sentAt: new Date() }).where(eq(searchRequests.outboxId, outboxId));
  }

  const outboxOfGroup = (groupId: string) =>
    t.app.ctx.db
      .select()
      .from(mailOutbox)
      .where(sql`${mailOutbox.ref} ->> 'searchRequestGroupId' = ${groupId}`)
      .orderBy(mailOutbox.createdAt);

  it('queues a new email with the same report, the request follows it, the audit log names who, the detail shows both emails', async () => {
    const { groupId, email, outboxId } = await sentRequest();
    const res = await resend(groupId, staff);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('The report email is queued again.');
    const data = res.json().data;
    expect(data).toMatchObject({ status: 'queued', attempts: 0, sentAt: null, canResend: false, recipientEmail: maskEmail(email) });
    expect(res.body).not.toContain(email);

    const mails = await outboxOfGroup(groupId);
    expect(mails).toHaveLength(2);
    const [first, second] = mails;
    expect(first!.id).toBe(outboxId);
    expect(second).toMatchObject({ kind: 'test-report', recipient: email, status: 'queued', subject: first!.subject });
    expect(second!.attachments.map((a) => a.filename)).toEqual(first!.attachments.map((a) => a.filename));
    // The same stored report, named by its id (the composer reads its bytes when the email is sent).
    expect(second!.attachments[0]!.ref).toBeTruthy();
    expect(second!.attachments[0]!.ref).toBe(first!.attachments[0]!.ref);

    const rows = await t.app.ctx.db.select().from(searchRequests).where(eq(searchRequests.groupId, groupId)).orderBy(searchRequests.serial);
    // The issued serial follows the new email; the one without test data (held) stays as it was.
    expect(rows.map((r) => [r.status, r.outboxId])).toEqual([
      ['queued', second!.id],
      ['held', null],
    ]);

    const audit = await t.app.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'searchRequest'), eq(auditLog.entityId, groupId)));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'resend',
      actorLabel: expect.stringContaining('@'),
      before: { status: 'sent', outboxId },
      after: { status: 'queued', outboxId: second!.id },
    });

    const detail = (await get(`/api/v1/search-requests/${groupId}`, admin)).json().data;
    expect(detail.deliveries.map((d: { id: string; status: string; resentBy: string | null }) => [d.id, d.status, d.resentBy])).toEqual([
      [outboxId, 'sent', null],
      [second!.id, 'queued', audit[0]!.actorLabel],
    ]);

    // While that email is on its way, another resend is refused; once it is sent, one is accepted again.
    expect((await resend(groupId, staff)).statusCode).toBe(409);
    await markSent(second!.id);
    expect((await resend(groupId, admin)).statusCode).toBe(200);
    expect(await outboxOfGroup(groupId)).toHaveLength(3);
  });

  it('50 resends at once make one new email: one accepted, 49 refused with 409', async () => {
    const { groupId } = await sentRequest();
    const answers = await Promise.all(Array.from({ length: 50 }, () => resend(groupId, staff)));
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(49);
    expect(answers.find((a) => a.statusCode === 409)!.json().error.message).toMatch(/still on its way/);
    expect(await outboxOfGroup(groupId)).toHaveLength(2);
    const audit = await t.app.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'searchRequest'), eq(auditLog.entityId, groupId)));
    expect(audit).toHaveLength(1);
  });

  it('refuses what cannot be resent: nothing issued, an erased address, unknown ids; signed out is 401', async () => {
    const notFound = await seed({ serials: [`${series()}000001`], status: 'not-found' });
    expect((await resend(notFound.groupId, staff)).json().error.message).toBe('This request has no report email to send again.');
    const held = await seed({ serials: [`${series()}000001`], status: 'held' });
    expect((await resend(held.groupId, staff)).statusCode).toBe(409);
    const { groupId } = await sentRequest();
    await t.app.ctx.db
      .update(searchRequests)
      .set({ recipientEmail: null, personalDataErasedAt: new Date() })
      .where(eq(searchRequests.groupId, groupId));
    const erased = await resend(groupId, staff);
    expect(erased.statusCode).toBe(409);
    expect(erased.json().error.message).toMatch(/retention/);
    expect((await resend(randomUUID(), staff)).statusCode).toBe(404);
    expect((await resend('x', staff)).statusCode).toBe(404);
    const anon = await t.app.inject({ method: 'POST', url: `/api/v1/search-requests/${groupId}/resend`, headers: { origin: ORIGIN } });
    expect(anon.statusCode).toBe(401);
  });
});

describe('retention', () => {
  it('clears the address and IP of requests older than the setting, and nothing else', async () => {
    const db = t.app.ctx.db;
    const now = new Date();
    const p = series();
    const old = await seed({ serials: [`${p}000001`, `${p}000002`], status: 'sent', at: new Date(now.getTime() - 400 * DAY) });
    const recent = await seed({ serials: [`${p}000003`], status: 'sent', at: new Date(now.getTime() - 300 * DAY) });
    const oldLookup = await seed({ serials: [`${p}000004`], email: null, at: new Date(now.getTime() - 500 * DAY) });
    // Their emails: the old one finished, another old one still queued (a retry needs its address).
    const oldMail = await enqueueMail(db, {
      kind: 'test-report',
      to: 'old@example.com',
      language: 'en',
      subject: 's',
      text: 't',
      ref: { searchRequestGroupId: old.groupId },
    });
    const pendingMail = await enqueueMail(db, { kind: 'test-report', to: 'pending@example.com', language: 'en', subject: 's', text: 't' });
    const otherKind = await enqueueMail(db, { kind: 'password-reset', to: 'staff@example.com', language: 'en', subject: 's', text: 't' });
    await db
      .update(mailOutbox)
      .set({ status: 'sent', createdAt: new Date(now.getTime() - 400 * DAY) })
      .where(eq(mailOutbox.id, oldMail));
    await db
      .update(mailOutbox)
      .set({ createdAt: new Date(now.getTime() - 400 * DAY) })
      .where(eq(mailOutbox.id, pendingMail));
    await db
      .update(mailOutbox)
      .set({ status: 'sent', createdAt: new Date(now.getTime() - 400 * DAY) })
      .where(eq(mailOutbox.id, otherKind));

    const before = await db.select().from(searchRequests).orderBy(searchRequests.id);
    const result = await applySearchRetention(db, now);
    expect(result.requests).toBeGreaterThanOrEqual(3);
    const after = await db.select().from(searchRequests).orderBy(searchRequests.id);
    expect(after).toHaveLength(before.length);
    const oldIds = new Set([...old.rows, ...oldLookup.rows].map((r) => r.id));
    for (const [i, b] of before.entries()) {
      const a = after[i]!;
      if (oldIds.has(b.id)) {
        expect(a).toEqual({ ...b, recipientEmail: null, clientIp: null, personalDataErasedAt: now });
      } else if (b.createdAt.getTime() >= now.getTime() - 365 * DAY) {
        expect(a).toEqual(b);
      }
    }
    expect(after.find((r) => r.id === recent.rows[0]!.id)).toMatchObject({
      recipientEmail: recent.rows[0]!.recipientEmail,
      clientIp: '203.0.113.7',
    });

    const mails = await db.select({ id: mailOutbox.id, recipient: mailOutbox.recipient, subject: mailOutbox.subject }).from(mailOutbox);
    const by = new Map(mails.map((m) => [m.id, m]));
    expect(by.get(oldMail)).toEqual({ id: oldMail, recipient: '', subject: 's' });
    expect(by.get(pendingMail)!.recipient).toBe('pending@example.com');
    expect(by.get(otherKind)!.recipient).toBe('staff@example.com');

    // Idempotent: a second run (or another instance's) finds nothing.
    expect(await applySearchRetention(db, now)).toEqual({ requests: 0, emails: 0 });
  });

  it('follows the setting: admins change it (audited), staff may not, out of range is a field error', async () => {
    const put = (cookie: string, days: unknown) =>
      t.app.inject({ method: 'PUT', url: '/api/v1/settings/search-retention', headers: { cookie, origin: ORIGIN }, payload: { days } });
    expect((await put(staff, 30)).statusCode).toBe(403);
    for (const bad of [0, 3651, 1.5, 'abc', null]) {
      const res = await put(admin, bad);
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json().error.fields[0].field).toBe('days');
    }
    const ok = await put(admin, 30);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.searchRetentionDays).toBe(30);
    expect((await get('/api/v1/settings', staff)).json().data.searchRetentionDays).toBe(30);
    const audit = await t.app.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'settings'), eq(auditLog.entityId, 'search-retention')));
    expect(audit.at(-1)).toMatchObject({ before: { searchRetentionDays: 365 }, after: { searchRetentionDays: 30 } });

    const now = new Date();
    const r40 = await seed({ serials: [`${series()}000001`], status: 'sent', at: new Date(now.getTime() - 40 * DAY) });
    const r20 = await seed({ serials: [`${series()}000001`], status: 'sent', at: new Date(now.getTime() - 20 * DAY) });
    await applySearchRetention(t.app.ctx.db, now);
    const rows = await t.app.ctx.db
      .select()
      .from(searchRequests)
      .where(sql`${searchRequests.groupId} in (${r40.groupId}, ${r20.groupId})`);
    const of = (id: string) => rows.find((r) => r.groupId === id)!;
    expect(of(r40.groupId)).toMatchObject({ recipientEmail: null, clientIp: null, status: 'sent', serial: r40.rows[0]!.serial });
    expect(of(r20.groupId).recipientEmail).toBe(r20.rows[0]!.recipientEmail);
    expect((await put(admin, 365)).statusCode).toBe(200);
  });
});
