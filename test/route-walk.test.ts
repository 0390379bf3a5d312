/**
 * Walks every registered route: anonymous callers get 401 on everything that is not public, and staff get
 * 403 on everything their abilities do not allow (admin-only). The routes are the app's access table, filled
 * by the onRoute hook that attaches the access check (lib/access.ts), so nothing registered can be missed.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAbilitiesFor } from '../src/shared/abilities';
import { accessTable, isOpenAccess, type Access } from '../src/server/lib/access';
import { buildTestApp, type TestApp } from './helpers/app';
import { randomIp, signedInUser } from './helpers/factories';

/** Routes that answer anyone on purpose, besides everything under /api/v1/public/. */
const PUBLIC_AUTH_ROUTES = new Set([
  'GET /api/v1/auth/setup',
  // who is signed in, or null for a visitor (auth.routes.ts)
  'GET /api/v1/auth/session',
  'POST /api/v1/auth/register',
  'POST /api/v1/auth/login',
  'POST /api/v1/auth/forgot-password',
  'POST /api/v1/auth/reset-password',
]);

interface Walked {
  method: string;
  url: string;
  access: Access;
}

let t: TestApp;
let routes: Walked[];
beforeAll(async () => {
  t = await buildTestApp();
  routes = [...accessTable(t.app)];
});
afterAll(() => t.close());

function concrete(url: string): string {
  return url.replace(/:\w+/g, randomUUID()).replace(/\*/g, 'x');
}

function request(r: Walked, cookie?: string) {
  const body = ['POST', 'PUT', 'PATCH'].includes(r.method) ? { payload: {} } : {};
  return t.app.inject({
    method: r.method as 'GET',
    url: concrete(r.url),
    remoteAddress: randomIp(),
    headers: cookie ? { cookie } : {},
    ...body,
  });
}

describe('route walk', () => {
  it('found the routes of this issue', () => {
    const keys = routes.map((r) => `${r.method} ${r.url}`);
    expect(keys).toEqual(
      expect.arrayContaining(['GET /api/v1/staff', 'DELETE /api/v1/staff/:id', 'GET /api/v1/auth/me', 'GET /api/v1/audit-log']),
    );
    expect(routes.every((r) => r.access !== undefined)).toBe(true);
  });

  it('public routes are only the sign-in ones and those under /api/v1/public/', () => {
    const open = routes.filter((r) => isOpenAccess(r.access)).map((r) => `${r.method} ${r.url}`);
    expect(open.filter((k) => !PUBLIC_AUTH_ROUTES.has(k) && !k.includes(' /api/v1/public/'))).toEqual([]);
  });

  it('anonymous callers get 401 on everything that is not public', async () => {
    const wrong: string[] = [];
    for (const r of routes.filter((x) => !isOpenAccess(x.access) && x.access !== 'bench')) {
      const res = await request(r);
      if (res.statusCode !== 401 || res.json().error?.status !== 'UNAUTHENTICATED') wrong.push(`${r.method} ${r.url} → ${res.statusCode}`);
    }
    expect(wrong).toEqual([]);
  });

  it('staff get 403 on everything admin-only', async () => {
    const { cookie } = await signedInUser(t.app, { role: 'staff' });
    const staff = defineAbilitiesFor('staff');
    const adminOnly = routes.filter((r) => typeof r.access === 'object' && !staff.can(r.access.action, r.access.subject));
    expect(adminOnly.length).toBeGreaterThanOrEqual(6);
    const wrong: string[] = [];
    for (const r of adminOnly) {
      const res = await request(r, cookie);
      if (res.statusCode !== 403 || res.json().error?.status !== 'PERMISSION_DENIED')
        wrong.push(`${r.method} ${r.url} → ${res.statusCode}`);
    }
    expect(wrong).toEqual([]);
    // The walk did nothing to the staff session.
    expect((await t.app.inject({ url: '/api/v1/auth/me', headers: { cookie } })).statusCode).toBe(200);
  });
});
