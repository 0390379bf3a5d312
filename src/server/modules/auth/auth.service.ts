/**
 * Sign-in, first-run registration, profile and own password. Routes parse and authorise; the rules live here.
 */
import { rulesFor } from '../../../shared/abilities';
import type { ChangePasswordInput, LoginInput, RegisterInput, UpdateMeInput } from '../../../shared/contract/auth';
import { AppError } from '../../../shared/errors';
import type { Language } from '../../../shared/i18n/index';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema/index';
import { assertPasswordAcceptable, hashPassword, verifyPassword } from '../../lib/passwords';
import { recordAudit, type AuditActor } from '../audit/audit.writer';
import type { LoginLimiter } from './login-limits';
import { endPendingResets } from './password-reset';
import { createSession, revokeSession, revokeUserSessions, toSessionUser, type SessionUser } from '../../lib/sessions';
import { countUsers, findUserByEmail, findUserById, insertUser, isUniqueViolation, lockUsersTable, updateUser } from './users.repo';

/** The accounts as other modules (staff) use them; they never import users.repo. */
export { deleteUser, findUserByEmail, findUserById, insertUser, isUniqueViolation, lockActiveAdminsExcept, updateUser } from './users.repo';

export interface RequestMeta {
  ip: string;
  userAgent?: string;
}

/** The fields of a user the audit trail keeps (no hash, no preferences blob). */
export function auditView(u: UserRow): Record<string, unknown> {
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    role: u.role,
    language: u.language,
    disabled: u.disabled,
    inspector: u.inspector,
    inspectorTitle: u.inspectorTitle,
  };
}

export function actorOf(user: Pick<SessionUser, 'id' | 'email'>, ip?: string): AuditActor {
  return { id: user.id, label: user.email, ip };
}

/** What the web app needs after sign-in and on reload: the user and the CASL rules of their role. */
export function meOf(user: SessionUser) {
  return { user, abilities: rulesFor(user.role) as unknown as Record<string, unknown>[] };
}

export async function needsFirstAdmin(db: Db): Promise<boolean> {
  return (await countUsers(db)) === 0;
}

/**
 * The first administrator, only while no account exists. The check and the insert happen under a table
 * lock in one transaction, so two registrations racing each other yield exactly one admin.
 */
export async function registerFirstAdmin(
  db: Db,
  input: RegisterInput & { email: string },
  language: Language,
  meta: RequestMeta,
): Promise<{ user: SessionUser; token: string }> {
  const closed = () => new AppError('aborted', 'auth.accountsByAdmin');
  // Cheap early answer, before spending an Argon2 hash; the locked check below is the one that counts.
  if (!(await needsFirstAdmin(db))) throw closed();
  await assertPasswordAcceptable(input.password);
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction(async (tx) => {
      await lockUsersTable(tx);
      if ((await countUsers(tx)) > 0) throw closed();
      const row = await insertUser(tx, { name: input.name, email: input.email, passwordHash, role: 'admin', language });
      await recordAudit(tx, actorOf(row, meta.ip), { action: 'register', entity: 'user', entityId: row.id, after: auditView(row) });
      const token = await createSession(tx, row.id, meta);
      return { user: toSessionUser(row), token };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw closed();
    throw err;
  }
}

/**
 * One answer for an unknown e-mail, a wrong password and a disabled account, with an Argon2 verification
 * in every case, so neither the message nor the time tells whether an account exists.
 */
export async function login(
  db: Db,
  limiter: LoginLimiter,
  input: LoginInput & { email: string },
  meta: RequestMeta,
  previousSessionIdHash: string | null,
): Promise<{ user: SessionUser; token: string }> {
  await limiter.attempt(input.email, meta.ip);
  const row = await findUserByEmail(db, input.email);
  const ok = await verifyPassword(row?.passwordHash, input.password);
  if (!row || !ok || row.disabled) throw new AppError('unauthenticated', 'errors.emailOrPasswordWrong');
  await limiter.succeeded(input.email, meta.ip);
  // A new session id at every sign-in: a session id planted before sign-in (fixation) is worth nothing.
  if (previousSessionIdHash) await revokeSession(db, previousSessionIdHash);
  const token = await createSession(db, row.id, meta);
  return { user: toSessionUser(row), token };
}

export async function updateMe(db: Db, user: SessionUser, changes: UpdateMeInput, ip: string): Promise<SessionUser> {
  return db.transaction(async (tx) => {
    const before = await findUserById(tx, user.id);
    if (!before) throw new AppError('unauthenticated', 'errors.sessionExpired');
    const after = (await updateUser(tx, user.id, changes))!;
    const was = { ...auditView(before), preferences: before.preferences };
    const is = { ...auditView(after), preferences: after.preferences };
    // Saving what is already there (the language button pressed on the current language, a form saved
    // unchanged) is not a change: an audit row for it would only bury the real ones.
    if (JSON.stringify(was) !== JSON.stringify(is)) {
      await recordAudit(tx, actorOf(user, ip), { action: 'update-profile', entity: 'user', entityId: user.id, before: was, after: is });
    }
    return toSessionUser(after);
  });
}

/**
 * Own password change. A wrong current password counts as a failed sign-in, so a stolen session cannot be
 * used to guess it. Every other session of the user ends; the one making the change stays.
 */
export async function changeOwnPassword(
  db: Db,
  limiter: LoginLimiter,
  user: SessionUser,
  currentSessionIdHash: string | null,
  input: ChangePasswordInput,
  ip: string,
): Promise<void> {
  await limiter.attempt(user.email, ip);
  const row = await findUserById(db, user.id);
  if (!row || !(await verifyPassword(row.passwordHash, input.currentPassword))) {
    throw new AppError('invalid-argument', 'auth.currentPasswordWrong', {
      fields: [{ field: 'currentPassword', key: 'auth.currentPasswordWrong' }],
    });
  }
  await limiter.succeeded(user.email, ip);
  await assertPasswordAcceptable(input.newPassword, 'newPassword');
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction(async (tx) => {
    await updateUser(tx, user.id, { passwordHash });
    await revokeUserSessions(tx, user.id, currentSessionIdHash ?? undefined);
    await endPendingResets(tx, user.id);
    await recordAudit(tx, actorOf(user, ip), { action: 'change-password', entity: 'user', entityId: user.id });
  });
}
