/**
 * The navigation guard of docs/product.md §8, in its order:
 *  1. a host name containing "client" or "report" serves only /search;
 *  2. public routes are open;
 *  3. unauthenticated-only routes send a signed-in user (one with a role) to /dashboard;
 *  4. a route's role list (or ability) admits the user when it allows them;
 *  5. a signed-in user it does not allow goes to not-authorized;
 *  6. a visitor goes to /login with the current query and `to` (omitted for /).
 */
import type { AppAbility, Role } from '../../shared/abilities';
import type { RouteAccess } from '../lib/route-meta';

export const PUBLIC_HOST_PATTERN = /client|report/i;

export function isPublicHost(hostname: string): boolean {
  return PUBLIC_HOST_PATTERN.test(hostname);
}

export interface GuardContext {
  hostname: string;
  pathname: string;
  /** the query string with its "?" or empty */
  search: string;
  user: { role: Role | null | undefined } | null;
  ability: AppAbility;
}

/** Where to send the user instead, or null to let the route open. */
export function guardRedirect(access: RouteAccess, ctx: GuardContext): string | null {
  if (isPublicHost(ctx.hostname) && ctx.pathname !== '/search') return `/search${ctx.search}`;
  if (access.kind === 'public') return null;
  const signedIn = !!ctx.user?.role;
  if (access.kind === 'unauthenticatedOnly') return signedIn ? '/dashboard' : null;
  if (signedIn) {
    const allowed =
      access.kind === 'roles' ? access.roles.includes(ctx.user!.role as Role) : ctx.ability.can(access.action, access.subject);
    return allowed ? null : '/not-authorized';
  }
  return loginRedirect(ctx.pathname, ctx.search);
}

/** /login with the current query and `to` = the requested path (omitted for /). */
export function loginRedirect(pathname: string, search: string): string {
  const query = new URLSearchParams(search);
  query.delete('to');
  if (pathname !== '/') query.set('to', pathname);
  const qs = query.toString();
  return `/login${qs ? `?${qs}` : ''}`;
}

// The return path's check lives below the app and the sign-in screen, which both read it.
export { safeReturnPath } from '../lib/return-path';
