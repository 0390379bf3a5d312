/** A refused request says which limit it hit and how long to wait, in minutes or hours, in en and zh (lib/limit-wait.ts). */
import { describe, expect, it } from 'vitest';
import { translate } from '../src/shared/i18n/index';
import { waitText, withWait } from '../src/server/lib/limit-wait';
import { PUBLIC_LIMITS } from '../src/server/modules/public/public-limits';

const message = (language: 'en' | 'zh', params: Record<string, string | number>) =>
  translate(language, 'errors.tooManyRequests', withWait(language, 'errors.tooManyRequests', params));

describe('the wait of a refused request', () => {
  it('is said in minutes, or in hours past an hour and a half, rounded up', () => {
    expect(waitText('en', 3219)).toBe('54 minutes');
    expect(waitText('zh', 3219)).toBe('54 分鐘');
    expect(waitText('en', 1)).toBe('1 minute');
    expect(waitText('en', 61)).toBe('2 minutes');
    expect(waitText('en', 90 * 60)).toBe('90 minutes');
    expect(waitText('en', 90 * 60 + 1)).toBe('2 hours');
    expect(waitText('zh', 5 * 3600)).toBe('5 小時');
  });

  it('names the limit that was hit, the sender address when the limit has no name of its own', () => {
    expect(message('en', { seconds: 3219, limit: 'requestPerRecipient' })).toBe(
      'Too many reports were sent to this email address; try again in 54 minutes',
    );
    expect(message('zh', { seconds: 3219, limit: 'requestPerRecipient' })).toBe('寄往此電子郵件地址的報告過多，請於 54 分鐘後再試');
    expect(message('en', { seconds: 30 })).toBe('Too many requests from your address; try again in 1 minute');
    expect(message('en', { seconds: 30, limit: 'no such limit' })).toBe('Too many requests from your address; try again in 1 minute');
    expect(translate('en', 'errors.tooManyLoginAttempts', withWait('en', 'errors.tooManyLoginAttempts', { seconds: 900 }))).toBe(
      'Too many sign-in attempts; try again in 15 minutes',
    );
  });

  it('has a wording for every public limit a request counts against itself', () => {
    for (const name of ['lookupPerSerial', 'requestSerialsPerIp', 'requestPerRecipient', 'requestPerSerial'] as const) {
      expect(PUBLIC_LIMITS[name]).toBeDefined();
      for (const language of ['en', 'zh'] as const)
        expect(message(language, { seconds: 60, limit: name })).not.toContain(translate(language, 'limits.hit.address'));
    }
  });
});
