import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliError, parseCommand, runAdminCommand } from '../src/server/cli/admin-commands';
import { buildTestApp, type TestApp } from './helpers/app';
import { createUser, randomIp, signIn, uniqueEmail } from './helpers/factories';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const noStdin = () => Promise.reject(new Error('stdin must not be read'));
const run = (argv: string[], stdin: () => Promise<string> = noStdin) => runAdminCommand(parseCommand(argv), t.testDb.database, stdin);
const loginStatus = async (email: string, password: string) =>
  (await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password }, remoteAddress: randomIp() })).statusCode;

describe('npm run admin', () => {
  it('create-admin generates a strong password, prints it once, and the admin can sign in', async () => {
    const email = uniqueEmail('boss');
    const lines = await run(['create-admin', '--email', email.toUpperCase(), '--name', 'The Boss']);
    expect(lines[0]).toBe(`Created administrator ${email}.`);
    const password = /shown once.*: (\S+)$/.exec(lines[1]!)![1]!;
    expect(password.length).toBeGreaterThanOrEqual(20);
    expect(await loginStatus(email, password)).toBe(200);
  });

  it('create-admin takes a password from stdin and prints none', async () => {
    const email = uniqueEmail('boss');
    const lines = await run(
      ['create-admin', '--email', email, '--name', 'Boss', '--password-stdin'],
      async () => 'Piped-In-Passphrase-1\n',
    );
    expect(lines).toEqual([`Created administrator ${email}.`]);
    expect(await loginStatus(email, 'Piped-In-Passphrase-1')).toBe(200);
  });

  it('reset-password prints a new password once and ends the sessions', async () => {
    const u = await createUser(t.app.ctx.db, { role: 'admin' });
    const cookie = await signIn(t.app, u.email, u.password, { remoteAddress: randomIp() });
    const lines = await run(['reset-password', '--email', u.email]);
    const password = /: (\S+)$/.exec(lines.at(-1)!)![1]!;
    expect((await t.app.inject({ url: '/api/v1/auth/me', headers: { cookie } })).statusCode).toBe(401);
    expect(await loginStatus(u.email, u.password)).toBe(401);
    expect(await loginStatus(u.email, password)).toBe(200);
  });

  it('refuses clearly: existing or unknown accounts, bad arguments, weak passwords', async () => {
    const u = await createUser(t.app.ctx.db);
    await expect(run(['create-admin', '--email', u.email, '--name', 'X'])).rejects.toThrow(/already exists/);
    await expect(run(['reset-password', '--email', uniqueEmail()])).rejects.toThrow(/no account/);
    expect(() => parseCommand([])).toThrow(CliError);
    expect(() => parseCommand(['create-admin', '--email', 'x@example.com'])).toThrow('--name is required');
    expect(() => parseCommand(['create-admin', '--email', 'nope', '--name', 'N'])).toThrow(
      '--email: The Email field must be a valid email',
    );
    expect(() => parseCommand(['reset-password', '--email', 'x@example.com', '--bogus'])).toThrow(CliError);
    await expect(run(['reset-password', '--email', u.email, '--password-stdin'], async () => 'short')).rejects.toThrow(/at least 8/);
    await expect(run(['reset-password', '--email', u.email, '--password-stdin'], async () => 'letmein1')).rejects.toThrow(/too common/);
  });

  it('the script exits non-zero with one line on a bad command', async () => {
    const err = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'src/server/cli/admin.ts', 'create-admin', '--email', 'nope', '--name', 'N'],
      {
        cwd: process.cwd(),
      },
    ).catch((e: { code: number; stderr: string }) => e);
    expect((err as { code: number }).code).toBe(1);
    expect((err as { stderr: string }).stderr).toBe('admin: --email: The Email field must be a valid email\n');
  }, 60_000);
});
