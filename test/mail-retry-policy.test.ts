import { describe, expect, it } from 'vitest';
import { classifySendError, DEFAULT_RETRY_POLICY, retryDelayMs } from '../src/server/mail/retry-policy';

const smtpError = (responseCode: number, code = 'EENVELOPE') =>
  Object.assign(new Error(`Can't send mail: ${responseCode} reply`), { code, responseCode });

describe('retry delays', () => {
  it('doubles from one minute and stops growing at the cap', () => {
    const mid = () => 0.5; // no jitter
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(n, DEFAULT_RETRY_POLICY, mid))).toEqual([60_000, 120_000, 240_000, 480_000, 960_000]);
    expect(retryDelayMs(30, DEFAULT_RETRY_POLICY, mid)).toBe(60 * 60_000);
  });

  it('spreads each delay by at most ±20%', () => {
    expect(retryDelayMs(1, DEFAULT_RETRY_POLICY, () => 0)).toBe(48_000);
    expect(retryDelayMs(1, DEFAULT_RETRY_POLICY, () => 0.999999)).toBeLessThanOrEqual(72_000);
  });
});

describe('send error classification', () => {
  it.each([
    ['550 unknown mailbox', smtpError(550), true],
    ['554 rejected message', smtpError(554, 'EMESSAGE'), true],
    ['451 greylisting', smtpError(451), false],
    ['421 service closing', smtpError(421, 'ECONNECTION'), false],
    ['503 bad sequence', smtpError(503, 'EPROTOCOL'), false],
    ['535 login refused (server configuration, not the message)', smtpError(535, 'EAUTH'), false],
    [
      'connection refused',
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:25'), { code: 'ESOCKET', originalCode: 'ECONNREFUSED' }),
      false,
    ],
    ['greeting timeout', Object.assign(new Error('Greeting never received'), { code: 'ETIMEDOUT' }), false],
    ['DNS failure', Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'EDNS' }), false],
    ['malformed recipient, no reply at all', Object.assign(new Error('No recipients defined'), { code: 'EENVELOPE' }), true],
    ['anything unknown', new Error('surprise'), false],
  ])('%s → permanent: %s', (_name, err, permanent) => {
    expect(classifySendError(err).permanent).toBe(permanent);
  });

  it('keeps the code and the server reply in the message, on one line', () => {
    const err = Object.assign(new Error("Can't send mail - all recipients were rejected:\n550 5.1.1 No such user"), {
      code: 'EENVELOPE',
      responseCode: 550,
    });
    expect(classifySendError(err).message).toBe("EENVELOPE: Can't send mail - all recipients were rejected: 550 5.1.1 No such user");
  });
});
