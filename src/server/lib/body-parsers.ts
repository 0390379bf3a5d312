/**
 * What request bodies the server reads: JSON (here) and multipart (registered by the routes that take
 * uploads). Everything else, text/plain and form-urlencoded included, is refused with 415 before any
 * handler runs, so that a request a plain HTML form or a "simple" cross-site fetch can send never reaches
 * a state-changing route, body-less ones such as logout included.
 *
 * JSON is also bounded in depth: V8 parses any depth, but a deeply nested value later overflows the stack
 * of every recursive walker (JSON.stringify, zod, the database driver) and would end as a 500. No payload
 * of this API nests anywhere near the limit.
 */
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../shared/errors';

export const MAX_JSON_DEPTH = 32;

/** True when no array or object in `value` is nested deeper than `max` (iterative: safe at any depth). */
export function jsonDepthWithin(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) return false;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return true;
}

export function registerBodyParsers(app: FastifyInstance): void {
  // Fastify's own JSON parser (with its __proto__ and constructor poisoning checks), then the depth bound.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    parseJson(req, body as string, (err: Error | null, value?: unknown) => {
      if (err) return done(err, undefined);
      if (!jsonDepthWithin(value, MAX_JSON_DEPTH)) {
        return done(new AppError('invalid-argument', 'errors.jsonTooDeep', { params: { max: MAX_JSON_DEPTH } }), undefined);
      }
      done(null, value);
    });
  });
}
