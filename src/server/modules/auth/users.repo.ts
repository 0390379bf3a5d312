/** SQL about user accounts, shared by auth and staff. Every function takes the database or a transaction. */
import { and, count, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { users, type UserRow } from '../../db/schema/index';

export type NewUser = Pick<UserRow, 'name' | 'email' | 'passwordHash' | 'role'> &
  Partial<Pick<UserRow, 'language' | 'inspector' | 'inspectorTitle'>>;
export type UserChanges = Partial<
  Pick<UserRow, 'name' | 'role' | 'disabled' | 'language' | 'preferences' | 'passwordHash' | 'inspector' | 'inspectorTitle'>
>;

/** citext makes this ignore case. */
export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return row;
}

export async function findUserById(db: Executor, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

export async function countUsers(db: Executor): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users);
  return row?.n ?? 0;
}

export async function insertUser(db: Executor, user: NewUser): Promise<UserRow> {
  const [row] = await db.insert(users).values(user).returning();
  return row!;
}

export async function updateUser(db: Executor, id: string, changes: UserChanges): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return row;
}

export async function deleteUser(db: Executor, id: string): Promise<void> {
  await db.delete(users).where(eq(users.id, id));
}

/**
 * Locks the rows of every active admin and returns how many there are besides `exceptId`. Two admins
 * demoting each other at once both take these locks, so the second sees the first's change and the last
 * active admin cannot vanish in a race.
 */
export async function lockActiveAdminsExcept(tx: Executor, exceptId: string): Promise<number> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'admin'), eq(users.disabled, false)))
    .for('update');
  return rows.filter((r) => r.id !== exceptId).length;
}

/** Serialises first-admin registration: nobody else can insert a user until this transaction ends. */
export async function lockUsersTable(tx: Executor): Promise<void> {
  await tx.execute(sql`LOCK TABLE users IN EXCLUSIVE MODE`);
}

/** Postgres unique violation (a concurrent insert of the same e-mail). */
export function isUniqueViolation(err: unknown): boolean {
  let e: unknown = err;
  for (let i = 0; i < 4 && e; i++) {
    if ((e as { code?: unknown }).code === '23505') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
