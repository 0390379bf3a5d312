/**
 * The commands of `npm run admin`, for an installation where nobody can sign in as an administrator.
 * Kept apart from the entry point so tests can run them against a test database.
 */
import { parseArgs } from 'node:util';
import type { z } from 'zod';
import { newPasswordField } from '../../shared/contract/auth';
import { emailField, requiredText } from '../../shared/contract/common';
import { translate } from '../../shared/i18n/index';
import type { Database } from '../db/client';
import { generatePassword, hashPassword, isCommonPassword } from '../lib/passwords';
import { recordAudit } from '../modules/audit/audit.writer';
import { auditView } from '../modules/auth/auth.service';
import { endPendingResets } from '../modules/auth/password-reset';
import { revokeUserSessions } from '../lib/sessions';
import { findUserByEmail, insertUser, updateUser } from '../modules/auth/users.repo';

export const USAGE = `Usage:
  npm run admin -- create-admin --email <email> --name <name> [--password-stdin]
  npm run admin -- reset-password --email <email> [--password-stdin]
Without --password-stdin a strong password is generated and printed once.`;

/** A mistake of the caller: printed as one line, exit code 1. */
export class CliError extends Error {
  override name = 'CliError';
}

export interface ParsedCommand {
  command: 'create-admin' | 'reset-password';
  email: string;
  name?: string;
  passwordFromStdin: boolean;
}

const CLI_ACTOR = { id: null, label: 'cli' };

function check<T>(schema: z.ZodType<T>, value: unknown, flag: string): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  throw new CliError(`${flag}: ${translate('en', r.error.issues[0]?.message ?? 'validation.invalid', { min: 8, max: 128 })}`);
}

/** Checks the arguments before anything touches the database. */
export function parseCommand(argv: string[]): ParsedCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { email: { type: 'string' }, name: { type: 'string' }, 'password-stdin': { type: 'boolean' } },
    });
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  const [command, ...rest] = parsed.positionals;
  if (command !== 'create-admin' && command !== 'reset-password') {
    throw new CliError(command ? `unknown command "${command}"\n${USAGE}` : USAGE);
  }
  if (rest.length) throw new CliError(`unexpected argument "${rest[0]}"`);
  if (parsed.values.email === undefined) throw new CliError('--email is required');
  const email = check(emailField(), parsed.values.email, '--email');
  let name: string | undefined;
  if (command === 'create-admin') {
    if (parsed.values.name === undefined) throw new CliError('--name is required');
    name = check(requiredText(120), parsed.values.name, '--name');
  } else if (parsed.values.name !== undefined) {
    throw new CliError('--name is only for create-admin');
  }
  return { command, email, name, passwordFromStdin: parsed.values['password-stdin'] === true };
}

async function choosePassword(fromStdin: boolean, readStdin: () => Promise<string>): Promise<{ password: string; generated: boolean }> {
  if (!fromStdin) return { password: generatePassword(), generated: true };
  const password = (await readStdin()).replace(/\r?\n$/, '');
  check(newPasswordField(), password, 'password');
  if (await isCommonPassword(password)) throw new CliError('password: this password is too common; choose another');
  return { password, generated: false };
}

/** Runs one command; returns the lines to print. */
export async function runAdminCommand(cmd: ParsedCommand, database: Database, readStdin: () => Promise<string>): Promise<string[]> {
  const { db } = database;
  const existing = await findUserByEmail(db, cmd.email);
  if (cmd.command === 'create-admin' && existing) {
    throw new CliError(`an account with ${cmd.email} already exists; use reset-password, or sign in and change its role`);
  }
  if (cmd.command === 'reset-password' && !existing) throw new CliError(`no account with ${cmd.email}`);
  const { password, generated } = await choosePassword(cmd.passwordFromStdin, readStdin);
  const passwordHash = await hashPassword(password);
  const shown = generated ? [`Password (shown once, store it now): ${password}`] : [];

  if (cmd.command === 'create-admin') {
    const row = await db.transaction(async (tx) => {
      const r = await insertUser(tx, { name: cmd.name!, email: cmd.email, passwordHash, role: 'admin' });
      await recordAudit(tx, CLI_ACTOR, { action: 'create', entity: 'user', entityId: r.id, after: auditView(r) });
      return r;
    });
    return [`Created administrator ${row.email}.`, ...shown];
  }
  const user = existing!;
  await db.transaction(async (tx) => {
    await updateUser(tx, user.id, { passwordHash });
    await revokeUserSessions(tx, user.id);
    await endPendingResets(tx, user.id);
    await recordAudit(tx, CLI_ACTOR, { action: 'set-password', entity: 'user', entityId: user.id });
  });
  return [
    `New password set for ${user.email}; all of its sessions have ended.`,
    ...(user.disabled ? ['Note: this account is disabled; an administrator must enable it before it can sign in.'] : []),
    ...shown,
  ];
}
