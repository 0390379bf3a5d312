/**
 * Factories with overrides for API tests. Hashes are real Argon2id; one hash per distinct password is
 * reused, so making many users stays quick.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Executor } from '../../src/server/db/client';
import type { UserRow } from '../../src/server/db/schema/index';
import { hashPassword } from '../../src/server/lib/passwords';
import { SESSION_COOKIE } from '../../src/server/lib/sessions';
import { insertUser, updateUser } from '../../src/server/modules/auth/users.repo';

/** A password that passes every rule (long enough, not a common one). */
export const GOOD_PASSWORD = 'Correct-Horse-Battery-42';

const hashes = new Map<string, Promise<string>>();
function cachedHash(password: string): Promise<string> {
  let h = hashes.get(password);
  if (!h) {
    h = hashPassword(password);
    hashes.set(password, h);
  }
  return h;
}

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomBytes(5).toString('hex')}@example.com`;
}

export interface UserOverrides {
  name?: string;
  email?: string;
  password?: string;
  role?: 'admin' | 'staff';
  language?: 'en' | 'zh';
  disabled?: boolean;
  preferences?: Record<string, unknown>;
  /** an authorised inspection representative with this title */
  inspectorTitle?: string;
}

/** A user straight in the database; `password` is returned so the test can sign in with it. */
export async function createUser(db: Executor, overrides: UserOverrides = {}): Promise<UserRow & { password: string }> {
  const password = overrides.password ?? GOOD_PASSWORD;
  const row = await insertUser(db, {
    name: overrides.name ?? 'Test User',
    email: (overrides.email ?? uniqueEmail(overrides.role ?? 'staff')).toLowerCase(),
    passwordHash: await cachedHash(password),
    role: overrides.role ?? 'staff',
    language: overrides.language ?? 'en',
  });
  const extra = {
    ...(overrides.disabled !== undefined ? { disabled: overrides.disabled } : {}),
    ...(overrides.preferences ? { preferences: overrides.preferences } : {}),
    ...(overrides.inspectorTitle ? { inspector: true, inspectorTitle: overrides.inspectorTitle } : {}),
  };
  const final = Object.keys(extra).length ? ((await updateUser(db, row.id, extra)) ?? row) : row;
  return { ...final, password };
}

/** The `name=value` of the session cookie a response sets, or undefined. */
export function sessionCookieOf(res: LightMyRequestResponse): string | undefined {
  const c = res.cookies.find((x) => x.name === SESSION_COOKIE && x.value);
  return c ? `${SESSION_COOKIE}=${c.value}` : undefined;
}

/** Signs in through the API and returns the cookie header value for later requests; fails the test otherwise. */
export async function signIn(
  app: FastifyInstance,
  email: string,
  password: string = GOOD_PASSWORD,
  options: { remoteAddress?: string } = {},
): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email, password },
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  });
  const cookie = sessionCookieOf(res);
  if (res.statusCode !== 200 || !cookie) throw new Error(`signIn(${email}) failed: ${res.statusCode} ${res.body}`);
  return cookie;
}

/** A user of the given role, already signed in. */
export async function signedInUser(app: FastifyInstance, overrides: UserOverrides = {}) {
  const user = await createUser(app.ctx.db, overrides);
  const cookie = await signIn(app, user.email, user.password, { remoteAddress: randomIp() });
  return { user, cookie };
}

/** A fresh client address, so that per-IP limits of one test do not leak into the next. */
export function randomIp(): string {
  const b = randomBytes(3);
  return `10.${b[0]}.${b[1]}.${b[2]}`;
}
