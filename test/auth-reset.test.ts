/**
 * Forgotten passwords: the same answer and the same time for every address, a link that is made only when
 * its email is sent (never stored), single use, 30 minutes, and ended by every password or account change.
 */
import fs from 'node:fs';
import path from 'node:path';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, passwordResets } from '../src/server/db/schema/index';
import { sha256 } from '../src/server/lib/crypto';
import { createFileTransport, createSmtpTransport } from '../src/server/mail/transports';
import { createMailWorker } from '../src/server/mail/worker';
import { RESET_TTL_MS } from '../src/server/modules/auth/password-reset';
import { buildTestApp, type TestApp } from './helpers/app';
import { dumpDatabase } from './helpers/database-dump';
import { createUser, randomIp, signIn, signedInUser, uniqueEmail } from './helpers/factories';
import { startSmtpSink, type SmtpSink } from './helpers/smtp-sink';

let t: TestApp;
let sink: SmtpSink;
const silent = { info() {}, warn() {}, error() {} };
beforeAll(async () => {
  sink = await startSmtpSink();
  t = await buildTestApp({ PUBLIC_BASE_URL: 'https://reports.example.com/' });
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

const NEW_PASSWORD = 'Brand-New-Passphrase-77';
const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload, headers, remoteAddress: randomIp() });
const forgot = (email: string) => post('/api/v1/auth/forgot-password', { email });
const reset = (token: string, password = NEW_PASSWORD) => post('/api/v1/auth/reset-password', { token, password });

async function mailsTo(email: string) {
  return t.app.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, email)).orderBy(desc(mailOutbox.createdAt));
}

/** Sends what is queued, as the running server's worker would, over SMTP to the sink. */
async function sendQueued(): Promise<void> {
  await t.app.ctx.afterResponse.idle();
  const worker = createMailWorker({ db: t.app.ctx.db, transport: createSmtpTransport(sink.url, 'trc@example.com'), log: silent });
  while ((await worker.runOnce()) > 0);
}

const linkPattern = /https:\/\/reports\.example\.com\/reset-password#token=([\w-]+)/;

/** Asks for a link and returns the token from the email that arrived. */
async function requestToken(email: string): Promise<string> {
  const before = sink.messages.length;
  expect((await forgot(email)).statusCode).toBe(200);
  await sendQueued();
  const arrived = sink.messages.slice(before).filter((m) => m.to.includes(email.toLowerCase()));
  expect(arrived).toHaveLength(1);
  return linkPattern.exec(arrived[0]!.parsed!.text ?? '')![1]!;
}

describe('forgot password', () => {
  it('answers an existing and an unknown address identically', async () => {
    const u = await createUser(t.app.ctx.db);
    const known = await forgot(u.email);
    const unknown = await forgot(uniqueEmail('nobody'));
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    expect(known.json()).toEqual({
      data: { ok: true, key: 'auth.resetLinkSent', message: 'Sent in email change password link successfully' },
    });
    await t.app.ctx.afterResponse.idle();
  });

  it('takes the same time for an existing and an unknown address (medians of interleaved requests)', async () => {
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    // One round: 40 known and 40 unknown addresses, interleaved; the medians of each.
    const round = async () => {
      const known = await Promise.all(Array.from({ length: 40 }, () => createUser(t.app.ctx.db)));
      const times = { known: [] as number[], unknown: [] as number[] };
      for (let i = 0; i < known.length; i++) {
        for (const [kind, email] of [
          ['known', known[i]!.email],
          ['unknown', uniqueEmail('nobody')],
        ] as const) {
          const start = process.hrtime.bigint();
          expect((await forgot(email)).statusCode).toBe(200);
          times[kind].push(Number(process.hrtime.bigint() - start) / 1e6);
        }
        // The work after the answer must not spill into the next measurement.
        await t.app.ctx.afterResponse.idle();
      }
      return { known: median(times.known), unknown: median(times.unknown), first: known[0]!.email };
    };
    // Before the fix a known address took two to three times as long (the email was made and a
    // transaction committed before the answer), in every round. The answer now does the same work for both;
    // on a loaded machine one round's medians can still be apart by chance, so up to three rounds are run
    // and one within the bound is enough (a difference in the work itself fails all three).
    const rounds: Array<{ known: number; unknown: number }> = [];
    for (let i = 0; i < 3; i++) {
      const r = await round();
      rounds.push(r);
      if (i === 0) expect(await mailsTo(r.first)).toHaveLength(1);
      if (r.known < r.unknown * 1.5 + 1) break;
    }
    expect(
      rounds.some((r) => r.known < r.unknown * 1.5 + 1),
      JSON.stringify(rounds),
    ).toBe(true);
  });

  it("queues a stand-in without any link; the link is made when the email is sent, in the user's language", async () => {
    const u = await createUser(t.app.ctx.db, { language: 'zh', name: '王小明' });
    expect((await forgot(u.email.toUpperCase())).statusCode).toBe(200);
    await t.app.ctx.afterResponse.idle();
    const [queued] = await mailsTo(u.email);
    expect(queued).toMatchObject({ kind: 'password-reset', language: 'zh', status: 'queued', subject: '重設您的測試報告中心密碼' });
    expect(queued!.textBody).not.toMatch(/token/);
    expect(await t.app.ctx.db.select().from(passwordResets).where(eq(passwordResets.userId, u.id))).toHaveLength(0);

    const before = Date.now();
    await sendQueued();
    const after = Date.now();
    const mail = sink.messages.find((m) => m.to.includes(u.email))!.parsed!;
    expect(mail.subject).toBe('重設您的測試報告中心密碼');
    expect(mail.text).toContain('王小明 您好');
    const token = linkPattern.exec(mail.text ?? '')![1]!;
    expect(mail.html).toContain(`https://reports.example.com/reset-password#token=${token}`);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    const rows = await t.app.ctx.db.select().from(passwordResets).where(eq(passwordResets.userId, u.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(sha256(token));
    // 30 minutes from the moment it was sent.
    expect(rows[0]!.expiresAt.getTime()).toBeGreaterThanOrEqual(before + RESET_TTL_MS - 1000);
    expect(rows[0]!.expiresAt.getTime()).toBeLessThanOrEqual(after + RESET_TTL_MS + 1000);
    const [sent] = await mailsTo(u.email);
    expect(sent!.status).toBe('sent');
    expect(`${sent!.textBody}${sent!.htmlBody}`).not.toContain(token);
  });

  it('stores no usable link anywhere in the database', async () => {
    const u = await createUser(t.app.ctx.db);
    const token = await requestToken(u.email);
    const dump = await dumpDatabase(t.testDb);
    expect(dump).toContain(sha256(token));
    expect(dump).not.toContain(token);
    expect(dump).not.toContain(encodeURIComponent(token));
  });

  it('writes no link into the .eml files kept without SMTP_URL, and says to ask an administrator', async () => {
    const u = await createUser(t.app.ctx.db);
    expect((await forgot(u.email)).statusCode).toBe(200);
    await t.app.ctx.afterResponse.idle();
    const dir = path.join(t.config.dataDir, 'outbox');
    const worker = createMailWorker({ db: t.app.ctx.db, transport: createFileTransport(dir, 'trc@example.com', silent), log: silent });
    while ((await worker.runOnce()) > 0);
    const eml = fs
      .readdirSync(dir)
      .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
      .find((m) => m.includes(u.email))!;
    expect(eml).toBeDefined();
    expect(eml).not.toMatch(/token/i);
    expect(eml).toMatch(/administrator/);
    expect(await t.app.ctx.db.select().from(passwordResets).where(eq(passwordResets.userId, u.id))).toHaveLength(0);
  });

  it('sends nothing for an unknown or disabled account', async () => {
    const d = await createUser(t.app.ctx.db, { disabled: true });
    const ghost = uniqueEmail('ghost');
    expect((await forgot(d.email)).statusCode).toBe(200);
    expect((await forgot(ghost)).statusCode).toBe(200);
    await t.app.ctx.afterResponse.idle();
    expect(await mailsTo(d.email)).toHaveLength(0);
    expect(await mailsTo(ghost)).toHaveLength(0);
  });
});

describe('reset password', () => {
  it('sets the new password, ends every session and works only once', async () => {
    const u = await createUser(t.app.ctx.db);
    const cookie = await signIn(t.app, u.email, u.password, { remoteAddress: randomIp() });
    const token = await requestToken(u.email);
    const res = await reset(token);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ ok: true, key: 'auth.passwordResetDone' });
    expect((await t.app.inject({ url: '/api/v1/auth/me', headers: { cookie } })).statusCode).toBe(401);
    expect((await post('/api/v1/auth/login', { email: u.email, password: NEW_PASSWORD })).statusCode).toBe(200);
    expect((await post('/api/v1/auth/login', { email: u.email, password: u.password })).statusCode).toBe(401);

    const again = await reset(token, 'Yet-Another-Passphrase-9');
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toMatchObject({ status: 'INVALID_ARGUMENT', key: 'auth.resetLinkInvalid' });
    expect(again.json().error.message).toMatch(/not valid/);
  });

  it("spends the user's other open links with it", async () => {
    const u = await createUser(t.app.ctx.db);
    const first = await requestToken(u.email);
    const second = await requestToken(u.email);
    expect(second).not.toBe(first);
    expect((await reset(second)).statusCode).toBe(200);
    expect((await reset(first)).json().error.key).toBe('auth.resetLinkInvalid');
  });

  it('refuses an expired link and an unknown one', async () => {
    const u = await createUser(t.app.ctx.db);
    const token = await requestToken(u.email);
    await t.app.ctx.db
      .update(passwordResets)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResets.tokenHash, sha256(token)));
    for (const res of [await reset(token), await reset('x'.repeat(43))]) {
      expect(res.statusCode).toBe(400);
      expect(res.json().error.key).toBe('auth.resetLinkInvalid');
    }
    expect((await post('/api/v1/auth/login', { email: u.email, password: u.password })).statusCode).toBe(200);
  });

  it('refuses a common new password without spending the link', async () => {
    const u = await createUser(t.app.ctx.db);
    const token = await requestToken(u.email);
    const res = await reset(token, 'iloveyou');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields[0]).toMatchObject({ field: 'password', key: 'validation.passwordTooCommon' });
    expect((await reset(token)).statusCode).toBe(200);
  });
});

describe('a password or account change ends pending links', () => {
  async function adminCookie() {
    const { cookie } = await signedInUser(t.app, { role: 'admin' });
    return { cookie };
  }

  it.each([
    [
      'the user changes their own password',
      async (u: Awaited<ReturnType<typeof createUser>>) => {
        const cookie = await signIn(t.app, u.email, u.password, { remoteAddress: randomIp() });
        return post('/api/v1/auth/password', { currentPassword: u.password, newPassword: 'Changed-Own-Passw0rd' }, { cookie });
      },
    ],
    [
      'an administrator sets a password',
      async (u: Awaited<ReturnType<typeof createUser>>) =>
        post(`/api/v1/staff/${u.id}/password`, { password: 'Set-By-Admin-Passw0rd' }, await adminCookie()),
    ],
    [
      'an administrator disables the account',
      async (u: Awaited<ReturnType<typeof createUser>>) =>
        t.app.inject({ method: 'PATCH', url: `/api/v1/staff/${u.id}`, payload: { disabled: true }, headers: await adminCookie() }),
    ],
    [
      'an administrator deletes the account',
      async (u: Awaited<ReturnType<typeof createUser>>) =>
        t.app.inject({ method: 'DELETE', url: `/api/v1/staff/${u.id}`, headers: await adminCookie() }),
    ],
  ])('when %s, a link sent before no longer works and a queued reset email is not sent', async (_what, change) => {
    const u = await createUser(t.app.ctx.db);
    const token = await requestToken(u.email);
    expect((await forgot(u.email)).statusCode).toBe(200);
    await t.app.ctx.afterResponse.idle();
    const res = await change(u);
    expect(res.statusCode).toBeLessThan(300);
    expect((await reset(token, 'Too-Late-Passphrase-5')).json().error.key).toBe('auth.resetLinkInvalid');
    const before = sink.messages.length;
    await sendQueued();
    expect(sink.messages.slice(before).filter((m) => m.to.includes(u.email))).toHaveLength(0);
    const pending = (await mailsTo(u.email)).filter((m) => m.status === 'queued' || m.status === 'sending');
    expect(pending).toHaveLength(0);
  });
});
