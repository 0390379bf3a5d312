/** Where /login may send a signed-in user back to. */
/** The `to` of /login, only when it is a path of this site (no open redirect). */
export function safeReturnPath(to: string | null | undefined): string | null {
  if (!to || !to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\')) return null;
  if (to === '/login') return null;
  return to;
}
