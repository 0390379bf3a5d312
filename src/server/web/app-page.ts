/**
 * The staff app's page (the built index.html) for a path of its router, with the JavaScript that path's
 * screen needs listed as `<link rel="modulepreload">` in its head (route-preloads.ts): the browser fetches
 * them all while the page's first script is still arriving. Without them, a phone on a slow network learnt of
 * each step's modules (the app, then the layout, then the page) only when the step before had run, and the
 * app added some eighty link elements to the page itself as it started (docs/decisions/0075-screens-preload-their-modules.md).
 *
 * For a visitor with a session, a staff screen's page also carries the screen's frame before the app's
 * container (staff-shell.ts, docs/decisions/0077-the-staff-page-arrives-with-its-frame.md).
 *
 * Its stylesheets are written into it. Without the build's list (an older build, a test's minimal build) the
 * page lists no modules. Each variant is made once per build and sent with an ETag, revalidated on every
 * visit: a revisit of an unchanged build is a 304.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LANGUAGE_COOKIE, pageLanguage } from '../../shared/i18n/negotiate';
import { etagOf } from './etag';
import { SESSION_COOKIE } from '../lib/sessions';
import { preloadLink, preloadsFor, ROUTE_PRELOADS_FILE, routeFor, routePreloadsSchema, type RoutePreloads } from './route-preloads';
import { lookKey, shellLook, staffShell } from './staff-shell';

interface Build {
  /** what identifies this build's files: a rebuild is read again, without a restart (as static.ts serves files) */
  stamp: string;
  html: string;
  table: RoutePreloads | null;
  /** the page as sent, by the modules it lists (a route in a language; at most routes × languages of them) */
  sent: Map<string, SentPage>;
}

interface SentPage {
  body: string;
  etag: string;
}

async function stampOf(file: string): Promise<string> {
  try {
    const s = await fs.stat(file);
    return `${s.mtimeMs}:${s.size}`;
  } catch {
    return 'none';
  }
}

async function readTable(file: string): Promise<RoutePreloads | null> {
  try {
    const parsed = routePreloadsSchema.safeParse(JSON.parse(await fs.readFile(file, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * The page's stylesheets (the fonts' @font-face rules, 15 kB) written into it, as the prerendered pages have
 * them (scripts/vite-prerender.ts): a stylesheet file held the first paint back by one more round trip.
 * One that cannot be read, or could close the element, stays a link.
 */
async function inlineStylesheets(html: string, dir: string): Promise<string> {
  const links = [...html.matchAll(/<link rel="stylesheet"[^>]*href="\/(assets\/[\w.-]+\.css)"[^>]*>/g)];
  let out = html;
  for (const [tag, file] of links) {
    const css = await fs.readFile(path.join(dir, file!), 'utf8').catch(() => null);
    if (css !== null && !/<\/style/i.test(css)) out = out.replace(tag, () => `<style>${css}</style>`);
  }
  return out;
}

/** What a request is answered with: the tag, and the body, made only when it is sent (not for a 304). */
interface Answer {
  body: () => string;
  etag: string;
}

const unframed = (page: SentPage): Answer => ({ body: () => page.body, etag: page.etag });

/**
 * `page` with a staff screen's frame before the app's container (staff-shell.ts). Its tag is the page's and
 * the frame's name (the build, the screen, the language and the look), so a revisit is a 304 without
 * drawing it. Framed pages are not kept: a few dozen looks of every screen, chosen by cookies, would let a
 * client fill the server's memory.
 */
function framed(page: SentPage, frameKey: string, frame: () => string): Answer {
  return {
    body: () => page.body.replace('<div id="app"></div>', () => `${frame()}<div id="app"></div>`),
    etag: `W/${etagOf(`${page.etag}|${frameKey}`)}`,
  };
}

const linkTags = (files: readonly string[]) => files.map(preloadLink).join('');

/** A handler sending the app's page for the request's path; `dir` holds the build and its index.html. */
export function appPage(dir: string) {
  const pageFile = path.join(dir, 'index.html');
  const tableFile = path.join(dir, ROUTE_PRELOADS_FILE);
  let build: Build | undefined;

  async function current(): Promise<Build> {
    const stamp = `${await stampOf(pageFile)}|${await stampOf(tableFile)}`;
    if (build?.stamp !== stamp) {
      const [html, table] = await Promise.all([fs.readFile(pageFile, 'utf8'), readTable(tableFile)]);
      build = { stamp, html: await inlineStylesheets(html, dir), table, sent: new Map() };
    }
    return build;
  }

  /** The page listing `files`, made once per build: a revisit is answered 304 by its ETag. */
  function pageWith({ html, sent }: Build, files: readonly string[]): SentPage {
    const key = files.join(' ');
    let page = sent.get(key);
    if (!page) {
      const body = files.length > 0 ? html.replace('</head>', `${linkTags(files)}</head>`) : html;
      // Weak: the compression plugin sends these bytes as gzip or brotli under the same tag.
      page = { body, etag: `W/${etagOf(body)}` };
      sent.set(key, page);
    }
    return page;
  }

  return async (req: FastifyRequest, reply: FastifyReply) => {
    const built = await current();
    let answer: Answer;
    if (!built.table) {
      answer = unframed(pageWith(built, []));
    } else {
      // The catalogue preloaded is the page's language, chosen as the prerendered pages choose it (pages.ts).
      reply.header('vary', 'Accept-Language, Cookie');
      const language = pageLanguage(req.cookies[LANGUAGE_COOKIE], req.headers['accept-language']);
      const route = routeFor(built.table.routes, req.url.split('?')[0] ?? '/');
      const files = preloadsFor(built.table, route, language);
      const { appTitle } = built.table;
      // A staff screen's frame for a visitor who has a session (one without is sent to sign in): whether it is
      // still valid the app asks as it starts, and the frame tells nothing a page without one does not.
      const page = pageWith(built, files);
      const title = route?.title;
      if (route && title && appTitle && req.cookies[SESSION_COOKIE]) {
        const look = shellLook(req.cookies);
        answer = framed(page, `${built.stamp}|${route.path}|${language}|${lookKey(look)}`, () =>
          staffShell(look, { title: title[language], intro: route.intro?.[language] }, appTitle[language]),
        );
      } else {
        answer = unframed(page);
      }
    }
    reply.header('cache-control', 'no-cache').header('etag', answer.etag);
    if (req.headers['if-none-match'] === answer.etag) return reply.status(304).send();
    return reply.type('text/html; charset=utf-8').send(answer.body());
  };
}
