/**
 * Forgot password end to end as a user meets it: the request, the email arriving over real SMTP in the
 * user's language, the link in it setting a new password, and signing in with that password.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackgroundWork } from '../src/server/background';
import { buildTestApp, type TestApp } from './helpers/app';
import { createUser, GOOD_PASSWORD, randomIp, signIn } from './helpers/factories';
import { startSmtpSink, type SmtpSink } from './helpers/smtp-sink';

let sink: SmtpSink;
let t: TestApp;
let stopBackground: () => Promise<void>;

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await buildTestApp({ SMTP_URL: sink.url, PUBLIC_BASE_URL: 'https://reports.example.com' });
  stopBackground = await startBackgroundWork(t.app);
});
afterAll(async () => {
  await stopBackground();
  await t.close();
  await sink.close();
});

describe('password reset over SMTP', () => {
  it("delivers the link in the user's language, and the link sets a password that signs in", async () => {
    const user = await createUser(t.app.ctx.db, { language: 'zh' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/forgot-password',
      payload: { email: user.email.toUpperCase() },
      remoteAddress: randomIp(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.message).toBe('Sent in email change password link successfully');

    const [mail] = await sink.waitFor(1);
    expect(mail!.to).toEqual([user.email]);
    expect(mail!.parsed!.subject).toMatch(/[\u4e00-\u9fff]/);
    const link = /https:\/\/reports\.example\.com\/reset-password#token=([\w%-]+)/.exec(mail!.parsed!.text ?? '');
    expect(link).not.toBeNull();
    expect(mail!.parsed!.html).toContain(link![0]);

    const newPassword = 'Brand-New-Valve-Seat-7';
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/reset-password',
      payload: { token: decodeURIComponent(link![1]!), password: newPassword },
      remoteAddress: randomIp(),
    });
    expect(reset.statusCode).toBe(200);
    await expect(signIn(t.app, user.email, newPassword, { remoteAddress: randomIp() })).resolves.toMatch(/^trc_session=/);
    await expect(signIn(t.app, user.email, GOOD_PASSWORD, { remoteAddress: randomIp() })).rejects.toThrow(/401/);
  });
});
