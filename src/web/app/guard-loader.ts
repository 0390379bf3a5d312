/** Route loaders that run the guard before a page (and its code) is shown. */
import { redirect, type LoaderFunctionArgs } from 'react-router';
import { ensureMe } from '../features/auth/api';
import { abilityFromMe, NO_ABILITIES } from '../lib/ability';
import { guardRedirect, isPublicHost } from './guard';
import { GUEST, type RouteAccess } from '../lib/route-meta';

export function guardLoader(access: RouteAccess) {
  return async ({ request }: LoaderFunctionArgs) => {
    const url = new URL(request.url);
    const base = { hostname: window.location.hostname, pathname: url.pathname, search: url.search };
    // Rules 1 and 2 need no session: public pages never ask the server who is signed in.
    if (access.kind === 'public' || isPublicHost(base.hostname)) {
      const to = guardRedirect(access, { ...base, user: null, ability: NO_ABILITIES });
      if (to) throw redirect(to);
      return null;
    }
    const me = await ensureMe();
    const to = guardRedirect(access, { ...base, user: me?.user ?? null, ability: abilityFromMe(me) });
    if (to) throw redirect(to);
    return null;
  };
}

/** A fixed redirect that still obeys the public-host rule. */
export function redirectLoader(target: string) {
  return ({ request }: LoaderFunctionArgs) => {
    const url = new URL(request.url);
    if (isPublicHost(window.location.hostname)) throw redirect(`/search${url.search}`);
    throw redirect(target);
  };
}

/**
 * /login is a page of its own (src/web/login-app, decision 0074): a route change to it (a sign-out, an ended
 * session, a link of the other sign-in screens) leaves the app with a page load, which also drops whatever the
 * previous user's session left in memory. A signed-in user goes on as the guard says.
 */
export function signInPageLoader() {
  const guard = guardLoader(GUEST);
  return async (args: LoaderFunctionArgs) => {
    await guard(args);
    const url = new URL(args.request.url);
    window.location.replace(`${url.pathname}${url.search}`);
    // Never settles: the route change waits, its loading bar showing, until the browser leaves the page.
    return new Promise<never>(() => undefined);
  };
}
