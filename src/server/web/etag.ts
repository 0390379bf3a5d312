import { createHash } from 'node:crypto';

/** A strong ETag of a page's bytes: the same bytes give the same tag on every server and after a restart. */
export function etagOf(body: string | Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url').slice(0, 20)}"`;
}
