/**
 * Server-side sessions: the cookie holds 256 random bits, the table holds only their SHA-256. A session
 * ends after IDLE_MS without use or ABSOLUTE_MS after sign-in, whichever comes first.
 */
import { and, eq, gt, lt, ne, or } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Executor } from '../db/client';
import { sessions, users, type UserRow } from '../db/schema/index';
import { randomToken, sha256 } from './crypto';

export const SESSION_COOKIE = 'trc_session';
export const IDLE_MS = 2 * 60 * 60 * 1000;
export const ABSOLUTE_MS = 12 * 60 * 60 * 1000;
/** last_seen_at is written at most this often, so a busy user does not cost a write per request. */
const TOUCH_EVERY_MS = 60 * 1000;

export interface SessionUser {
  id: string;
  name: string;
  email: string;
  role: 'admin' | 'staff';
  language: 'en' | 'zh';
  preferences: Record<string, unknown>;
  disabled: boolean;
  inspector: boolean;
  inspectorTitle: string;
}

export function toSessionUser(u: UserRow): SessionUser {
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    role: u.role,
    language: u.language,
    preferences: u.preferences,
    disabled: u.disabled,
    inspector: u.inspector,
    inspectorTitle: u.inspectorTitle,
  };
}

export async function createSession(db: Executor, userId: string, meta: { ip?: string; userAgent?: string } = {}): Promise<string> {
  const token = randomToken(32);
  await db.insert(sessions).values({
    idHash: sha256(token),
    userId,
    expiresAt: new Date(Date.now() + ABSOLUTE_MS),
    ip: meta.ip ?? null,
    userAgent: meta.userAgent?.slice(0, 400) ?? null,
  });
  return token;
}

/** The user behind a session cookie, or null when the session is unknown, idle too long, expired or the user is disabled. */
export async function resolveSession(db: Executor, token: string): Promise<{ user: SessionUser; idHash: string } | null> {
  const idHash = sha256(token);
  const now = Date.now();
  const [row] = await db
    .select({ user: users, lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.idHash, idHash),
        gt(sessions.expiresAt, new Date(now)),
        gt(sessions.lastSeenAt, new Date(now - IDLE_MS)),
        eq(users.disabled, false),
      ),
    )
    .limit(1);
  if (!row) return null;
  if (now - row.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await db
      .update(sessions)
      .set({ lastSeenAt: new Date(now) })
      .where(eq(sessions.idHash, idHash));
  }
  return { user: toSessionUser(row.user), idHash };
}

export async function revokeSession(db: Executor, idHash: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.idHash, idHash));
}

/** Ends every session of a user, or every one but `keepIdHash` (password change keeps the current one). */
export async function revokeUserSessions(db: Executor, userId: string, keepIdHash?: string): Promise<void> {
  await db
    .delete(sessions)
    .where(keepIdHash ? and(eq(sessions.userId, userId), ne(sessions.idHash, keepIdHash)) : eq(sessions.userId, userId));
}

export async function purgeExpiredSessions(db: Executor): Promise<void> {
  const now = Date.now();
  await db.delete(sessions).where(or(lt(sessions.expiresAt, new Date(now)), lt(sessions.lastSeenAt, new Date(now - IDLE_MS))));
}

export function setSessionCookie(req: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: req.protocol === 'https',
    maxAge: Math.floor(ABSOLUTE_MS / 1000),
  });
}

export function clearSessionCookie(req: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: req.protocol === 'https' });
}
