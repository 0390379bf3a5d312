/**
 * Authorisation on every route, declared where the route is: `config: { access: ... }`.
 *  - 'public': anyone (a signed-in user is known to the route); 'bench': a test bench's API key, checked by
 *    the route itself; 'anonymous': anyone, and the session is not even read: the visitors' API
 *    (src/server/modules/public) never needs to know who is signed in, and its lookup is the app's busiest route;
 *  - 'signed-in': any active user; `{ action, subject }`: a user whose abilities (src/shared/abilities) allow it.
 * A route under /api/v1 without a declaration fails at start-up, so nothing is open by accident.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { defineAbilitiesFor, type Action, type Subject } from '../../shared/abilities';
import { AppError } from '../../shared/errors';
import type { Db } from '../db/client';
import { resolveSession, SESSION_COOKIE, type SessionUser } from './sessions';

export type Access = 'public' | 'anonymous' | 'bench' | 'signed-in' | { action: Action; subject: Subject };

/** Routes anyone may call: no 401 and no 403 from this module. */
export function isOpenAccess(access: Access | undefined): boolean {
  return access === 'public' || access === 'anonymous';
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    user: SessionUser | null;
    sessionIdHash: string | null;
  }
}

export function requireUser(req: FastifyRequest): SessionUser {
  if (!req.user) throw new AppError('unauthenticated', 'errors.unauthenticated');
  return req.user;
}

/** A route of the API with the access rule it declared. */
export interface RouteAccess {
  method: string;
  url: string;
  access: Access;
}

const accessTables = new WeakMap<FastifyInstance, RouteAccess[]>();

/** Every /api/v1 route of `app` with its access rule, as registered (HEAD and OPTIONS left out). */
export function accessTable(app: FastifyInstance): readonly RouteAccess[] {
  return accessTables.get(app) ?? [];
}

export function registerAccessControl(app: FastifyInstance, db: Db): void {
  const table: RouteAccess[] = [];
  accessTables.set(app, table);
  app.decorateRequest('user', null);
  app.decorateRequest('sessionIdHash', null);

  /**
   * The session and ability check, on the routes that declare a rule which needs it: attached to each such
   * route rather than to every request, so that static files, pages, bench and 'anonymous' routes do not
   * run it at all. First among the route's own hooks (before its rate limit), as a global hook was.
   */
  async function checkAccess(req: FastifyRequest): Promise<void> {
    const access = req.routeOptions.config?.access;
    if (!access || access === 'bench' || access === 'anonymous') return;
    const token = req.cookies[SESSION_COOKIE];
    if (token) {
      const found = await resolveSession(db, token);
      if (found) {
        req.user = found.user;
        req.sessionIdHash = found.idHash;
      }
    }
    if (access === 'public') return;
    if (!req.user) {
      throw new AppError('unauthenticated', token ? 'errors.sessionExpired' : 'errors.unauthenticated');
    }
    if (access === 'signed-in') return;
    if (!defineAbilitiesFor(req.user.role).can(access.action, access.subject)) {
      throw new AppError('permission-denied', 'errors.permissionDenied');
    }
  }

  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (route.url.startsWith('/api/v1') && !access) {
      throw new Error(`Route ${route.method} ${route.url} declares no access rule`);
    }
    if (route.url.startsWith('/api/v1'))
      for (const method of [route.method].flat())
        if (method !== 'HEAD' && method !== 'OPTIONS') table.push({ method, url: route.url, access: access! });
    if (!access || access === 'bench' || access === 'anonymous') return;
    const own = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    route.onRequest = [checkAccess, ...own];
  });
}
