/**
 * Authorisation on every route, declared where the route is: `config: { access: ... }`.
 *  - 'public': anyone; 'bench': a test bench's API key, checked by the route itself;
 *  - 'signed-in': any active user; `{ action, subject }`: a user whose abilities (src/shared/abilities) allow it.
 * A route under /api/v1 without a declaration fails at start-up, so nothing is open by accident.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { defineAbilitiesFor, type Action, type Subject } from '../../shared/abilities';
import { AppError } from '../../shared/errors';
import type { Db } from '../db/client';
import { resolveSession, SESSION_COOKIE, type SessionUser } from './sessions';

export type Access = 'public' | 'bench' | 'signed-in' | { action: Action; subject: Subject };

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

export function registerAccessControl(app: FastifyInstance, db: Db): void {
  app.decorateRequest('user', null);
  app.decorateRequest('sessionIdHash', null);

  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/v1') && !route.config?.access) {
      throw new Error(`Route ${route.method} ${route.url} declares no access rule`);
    }
  });

  app.addHook('onRequest', async (req) => {
    const access = req.routeOptions.config?.access;
    // Static files, app pages and the docs UI declare no rule and need no user: no session query for them.
    // Bench routes authenticate by their key alone: a cookie on them is ignored, not looked up.
    if (!access || access === 'bench') return;
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
  });
}
