/**
 * Staff accounts, managed by admins. The rules: e-mails are unique ignoring case; an admin cannot delete,
 * demote or disable themselves; the last active admin can never go; a role change, disabling, deletion
 * or password reset ends that user's sessions at once. Every change is audited in its transaction.
 */
import type { StaffInput, StaffUpdate } from '../../../shared/contract/staff';
import { AppError } from '../../../shared/errors';
import type { Db, Tx } from '../../db/client';
import type { UserRow } from '../../db/schema/index';
import { assertPasswordAcceptable, hashPassword } from '../../lib/passwords';
import { recordAudit, type AuditActor } from '../audit/audit.writer';
import { auditView } from '../auth/auth.service';
import { endPendingResets } from '../auth/password-reset';
import { revokeUserSessions, toSessionUser, type SessionUser } from '../../lib/sessions';
import {
  deleteUser,
  findUserByEmail,
  findUserById,
  insertUser,
  isUniqueViolation,
  lockActiveAdminsExcept,
  updateUser,
} from '../auth/auth.service';

const emailTaken = () => new AppError('already-exists', 'staff.emailTaken', { fields: [{ field: 'email', key: 'staff.emailTaken' }] });
const notFound = () => new AppError('not-found', 'errors.userNotFound');

export function toStaffMember(u: UserRow, stampSha256: string | null = null) {
  return { ...toSessionUser(u), createdAt: u.createdAt.toISOString(), stampSha256 };
}

export async function addStaff(db: Db, actor: AuditActor, input: StaffInput & { email: string }): Promise<UserRow> {
  if (await findUserByEmail(db, input.email)) throw emailTaken();
  await assertPasswordAcceptable(input.password);
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction(async (tx) => {
      const row = await insertUser(tx, {
        name: input.name,
        email: input.email,
        passwordHash,
        role: input.role,
        inspector: input.inspector ?? false,
        inspectorTitle: input.inspectorTitle ?? '',
      });
      await recordAudit(tx, actor, { action: 'create', entity: 'user', entityId: row.id, after: auditView(row) });
      return row;
    });
  } catch (err) {
    // Two admins adding the same address at once: the unique index decides, the loser gets the same answer.
    if (isUniqueViolation(err)) throw emailTaken();
    throw err;
  }
}

/** Whether `after` leaves the user without the powers of an active admin they had before. */
function losesAdmin(before: UserRow, change: { role?: string; disabled?: boolean; deleted?: boolean }): boolean {
  const wasActiveAdmin = before.role === 'admin' && !before.disabled;
  const staysActiveAdmin = !change.deleted && (change.role ?? before.role) === 'admin' && !(change.disabled ?? before.disabled);
  return wasActiveAdmin && !staysActiveAdmin;
}

async function guardAdminLoss(tx: Tx, target: UserRow, change: Parameters<typeof losesAdmin>[1]): Promise<void> {
  if (!losesAdmin(target, change)) return;
  if ((await lockActiveAdminsExcept(tx, target.id)) === 0) throw new AppError('failed-precondition', 'staff.lastAdmin');
}

async function loadForChange(tx: Tx, id: string): Promise<UserRow> {
  const row = await findUserById(tx, id);
  if (!row) throw notFound();
  return row;
}

export async function updateStaff(db: Db, actorUser: SessionUser, actor: AuditActor, id: string, change: StaffUpdate): Promise<UserRow> {
  if (id === actorUser.id) {
    if (change.role !== undefined && change.role !== actorUser.role) throw new AppError('failed-precondition', 'staff.cannotDemoteSelf');
    if (change.disabled === true) throw new AppError('failed-precondition', 'staff.cannotDisableSelf');
  }
  return db.transaction(async (tx) => {
    const before = await loadForChange(tx, id);
    await guardAdminLoss(tx, before, change);
    // An authorised inspector is printed with a title: marking one without it is refused on the field.
    if ((change.inspector ?? before.inspector) && (change.inspectorTitle ?? before.inspectorTitle).trim() === '')
      throw new AppError('invalid-argument', 'errors.invalidRequest', {
        fields: [{ field: 'inspectorTitle', key: 'staff.validation.inspectorTitleRequired' }],
      });
    const after = (await updateUser(tx, id, change))!;
    // Old sessions carry the old role's trust; a disabled user must be out now, not at the next sign-in.
    if (before.role !== after.role || (!before.disabled && after.disabled)) await revokeUserSessions(tx, id);
    if (!before.disabled && after.disabled) await endPendingResets(tx, id);
    await recordAudit(tx, actor, { action: 'update', entity: 'user', entityId: id, before: auditView(before), after: auditView(after) });
    return after;
  });
}

export async function setStaffPassword(
  db: Db,
  actorUser: SessionUser,
  actor: AuditActor,
  currentSessionIdHash: string | null,
  id: string,
  password: string,
): Promise<void> {
  if (!(await findUserById(db, id))) throw notFound();
  await assertPasswordAcceptable(password);
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    await loadForChange(tx, id);
    await updateUser(tx, id, { passwordHash });
    await endPendingResets(tx, id);
    // An admin setting their own password here keeps the session they are using, as on /auth/password.
    await revokeUserSessions(tx, id, id === actorUser.id ? (currentSessionIdHash ?? undefined) : undefined);
    await recordAudit(tx, actor, { action: 'set-password', entity: 'user', entityId: id });
  });
}

export async function deleteStaff(db: Db, actorUser: SessionUser, actor: AuditActor, id: string): Promise<void> {
  if (id === actorUser.id) throw new AppError('failed-precondition', 'staff.cannotDeleteSelf');
  await db.transaction(async (tx) => {
    const before = await loadForChange(tx, id);
    await guardAdminLoss(tx, before, { deleted: true });
    // Sessions go with the row (ON DELETE CASCADE); said explicitly so the rule does not hang on the schema.
    await revokeUserSessions(tx, id);
    await endPendingResets(tx, id);
    await deleteUser(tx, id);
    await recordAudit(tx, actor, { action: 'delete', entity: 'user', entityId: id, before: auditView(before) });
  });
}
