import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, passwordResets } from '../src/server/db/schema/index';
import { sha256 } from '../src/server/lib/crypto';
import { RESET_TTL_MS } from '../src/server/modules/auth/password-reset';
import { buildTestApp, type TestApp } from './helpers/app';
import { createUser, randomIp, signIn, uniqueEmail } from './helpers/factories';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ PUBLIC_BASE_URL: 'https://reports.example.com/' });
});
afterAll(() => t.close());

const NEW_PASSWORD = 'Brand-New-Passphrase-77';
const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, payload, remoteAddress: randomIp() });
const forgot = (email: string) => post('/api/v1/auth/forgot-password', { email });
const reset = (token: string, password = NEW_PASSWORD) => post('/api/v1/auth/reset-password', { token, password });

async function mailsTo(email: string) {
  return t.app.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, email)).orderBy(desc(mailOutbox.createdAt));
}

/** Asks for a link and returns the token from the queued email. */
const tokenOf = (text: string) => /reset-password\?token=([\w-]+)/.exec(text)![1]!;

/** Asks for a link and returns the token of the new queued email. */
async function requestToken(email: string): Promise<string> {
  const seen = new Set((await mailsTo(email.toLowerCase())).map((m) => m.id));
  expect((await forgot(email)).statusCode).toBe(200);
  const fresh = (await mailsTo(email.toLowerCase())).filter((m) => !seen.has(m.id));
  expect(fresh).toHaveLength(1);
  return tokenOf(fresh[0]!.textBody);
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
  });

  it('queues an email in the user\'s language with a link to PUBLIC_BASE_URL, storing only the hash of the token', async () => {
    const u = await createUser(t.app.ctx.db, { language: 'zh', name: '王小明' });
    const before = Date.now();
    const token = await requestToken(u.email.toUpperCase());
    const [mail] = await mailsTo(u.email);
    expect(mail).toMatchObject({ kind: 'password-reset', language: 'zh', status: 'queued', subject: '重設您的測試報告中心密碼' });
    expect(mail!.textBody).toContain(`https://reports.example.com/reset-password?token=${token}`);
    expect(mail!.textBody).toContain('王小明 您好');
    expect(mail!.htmlBody).toContain(`https://reports.example.com/reset-password?token=${token}`);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    const rows = await t.app.ctx.db.select().from(passwordResets).where(eq(passwordResets.userId, u.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(sha256(token));
    const ttl = rows[0]!.expiresAt.getTime() - before;
    expect(ttl).toBeGreaterThan(RESET_TTL_MS - 60_000);
    expect(ttl).toBeLessThanOrEqual(RESET_TTL_MS + 1000);
  });

  it('writes the English email for an English user', async () => {
    const u = await createUser(t.app.ctx.db, { language: 'en' });
    await requestToken(u.email);
    const [mail] = await mailsTo(u.email);
    expect(mail).toMatchObject({ language: 'en', subject: 'Reset your Test Report Center password' });
  });

  it('sends nothing for an unknown or disabled account', async () => {
    const d = await createUser(t.app.ctx.db, { disabled: true });
    const ghost = uniqueEmail('ghost');
    expect((await forgot(d.email)).statusCode).toBe(200);
    expect((await forgot(ghost)).statusCode).toBe(200);
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

  it('spends the user\'s other open links with it', async () => {
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
    await t.app.ctx.db.update(passwordResets).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(passwordResets.tokenHash, sha256(token)));
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
