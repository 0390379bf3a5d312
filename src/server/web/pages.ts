/**
 * /search and /login as prerendered HTML (scripts/vite-prerender.ts) in the visitor's language: the one
 * chosen on a page before (its cookie), else Accept-Language's (docs/decisions/0022-prerendered-first-screens.md).
 * Sent compressed as built (.br/.gz), revalidated on every visit (no-cache, with an ETag), and marked as
 * varying by the headers that choose it. Without a prerendered build the app's index.html is sent.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { htmlLang, LANGUAGE_COOKIE, pageLanguage } from '../../shared/i18n/negotiate';
import { etagOf } from './etag';
import { prerenderedFile, type PrerenderedScreen } from './prerendered';

export const PAGE_VARY = 'Accept-Language, Cookie, Accept-Encoding';

type Encoding = 'br' | 'gzip' | 'identity';

/** The best of the encodings built beside each page that the browser accepts (no q=0 parsing: browsers send none). */
export function pickEncoding(acceptEncoding: string | undefined): Encoding {
  const accepted = (acceptEncoding ?? '').toLowerCase();
  if (/\bbr\b/.test(accepted)) return 'br';
  if (/\bgzip\b/.test(accepted)) return 'gzip';
  return 'identity';
}

const SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz', identity: '' };

interface Variant {
  body: Buffer;
  encoding: Encoding;
  etag: string;
}

async function readVariant(file: string, wanted: Encoding): Promise<Variant | null> {
  for (const encoding of wanted === 'identity' ? (['identity'] as const) : ([wanted, 'identity'] as const)) {
    try {
      const body = await fs.readFile(`${file}${SUFFIX[encoding]}`);
      return { body, encoding, etag: etagOf(body) };
    } catch {
      // this encoding was not built (small file) or there is no prerendered build: try the next
    }
  }
  return null;
}

/**
 * A handler for one prerendered screen, or the fallback (index.html) when the build has none. `dir` is
 * read per request, so that a rebuild is served without a restart, as static.ts does.
 */
export function prerenderedPage(dir: string, screen: PrerenderedScreen, fallback: (req: FastifyRequest, reply: FastifyReply) => unknown) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const language = pageLanguage(req.cookies[LANGUAGE_COOKIE], req.headers['accept-language']);
    const variant = await readVariant(path.join(dir, prerenderedFile(screen, language)), pickEncoding(req.headers['accept-encoding']));
    reply.header('vary', PAGE_VARY);
    if (!variant) return fallback(req, reply);
    reply.header('cache-control', 'no-cache').header('etag', variant.etag).header('content-language', htmlLang(language));
    if (req.headers['if-none-match'] === variant.etag) return reply.status(304).send();
    reply.type('text/html; charset=utf-8');
    if (variant.encoding !== 'identity') reply.header('content-encoding', variant.encoding);
    return reply.send(variant.body);
  };
}
