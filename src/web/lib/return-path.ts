/** Where /login may send a signed-in user back to. */
/** The `to` of /login, only when it is a path of this site (no open redirect). */
export function safeReturnPath(to: string | null | undefined): string | null {
  if (!to || !to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\')) return null;
  if (to === '/login') return null;
  return to;
}

/**
 * Where a sign-in on `search` (the query of /login) goes on to: its `to` when that is a path of this site, else
 * the dashboard, with the rest of the query kept (a link's own query survives a detour through /login).
 */
export function signInTarget(search: string): string {
  const params = new URLSearchParams(search);
  const target = safeReturnPath(params.get('to')) ?? '/dashboard';
  params.delete('to');
  const rest = params.toString();
  return rest ? `${target}${target.includes('?') ? '&' : '?'}${rest}` : target;
}
