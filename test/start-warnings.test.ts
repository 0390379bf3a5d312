/** What the server warns about at start in production: a MAIL_FROM that receiving servers would refuse. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/server/config';
import { mailFromProblem, startWarnings } from '../src/server/start-warnings';

describe('MAIL_FROM at start', () => {
  it('is warned about in production when unset', () => {
    const [warning, ...more] = startWarnings(loadConfig({ NODE_ENV: 'production' }));
    expect(more).toEqual([]);
    expect(warning).toMatch(/^MAIL_FROM is not set: report emails go out from no-reply@localhost, .*set MAIL_FROM to an address/);
  });

  it.each(['Reports <reports@localhost>', 'reports@mailhost', 'Reports <r@valves.local>', 'r@127.0.0.1', 'r@[::1]', 'no address at all'])(
    'is warned about in production at %s',
    (value) => {
      expect(startWarnings(loadConfig({ NODE_ENV: 'production', MAIL_FROM: value }))).toEqual([expect.stringContaining('MAIL_FROM=')]);
    },
  );

  it.each(['Formosa Flow Valves <reports@formosaflow.com.tw>', 'reports@mail.example.com'])('is fine at %s', (value) => {
    expect(mailFromProblem(value)).toBeNull();
    expect(startWarnings(loadConfig({ NODE_ENV: 'production', MAIL_FROM: value }))).toEqual([]);
  });

  it('is not warned about outside production (a developer keeps the default)', () => {
    expect(startWarnings(loadConfig({}))).toEqual([]);
    expect(startWarnings(loadConfig({ NODE_ENV: 'development', MAIL_FROM: 'r@localhost' }))).toEqual([]);
  });
});
