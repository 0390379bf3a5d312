/**
 * The JavaScript each staff screen needs before it can draw, as the build lists it
 * (scripts/vite-route-preloads.ts), and which of its routes a path is. The server writes a route's files into
 * the page it sends for that path (app-page.ts; docs/decisions/0075-screens-preload-their-modules.md).
 */
import { z } from 'zod';
import { LANGUAGES, type Language } from '../../shared/i18n/index';

/** Beside the manifest, under a dot folder the server never serves (static.ts, isHiddenPath). */
export const ROUTE_PRELOADS_FILE = '.vite/route-preloads.json';

const files = z.array(z.string().regex(/^assets\/[\w.-]+\.js$/));
const textPerLanguage = z.record(z.enum(LANGUAGES), z.string());

export const routePreloadsSchema = z.object({
  /** the staff app's start: every staff screen needs it */
  start: files,
  /** the font files the staff screens draw in that a browser would learn of only as the app draws */
  fonts: z.array(z.string().regex(/^assets\/[\w.-]+\.woff2$/)).optional(),
  /** the app's name in each language, which the staff screens' frame shows (staff-shell.ts) */
  appTitle: textPerLanguage.optional(),
  /** each language's catalogue, beyond the start */
  catalogues: z.record(z.enum(LANGUAGES), files),
  /**
   * per route of the router (its path as the router writes it), its layout's and page's files beyond the
   * start, and a staff screen's title and the line under it in each language (the server draws that screen's
   * frame, staff-shell.ts)
   */
  routes: z.array(z.object({ path: z.string(), files, title: textPerLanguage.optional(), intro: textPerLanguage.optional() })),
});
export type RoutePreloads = z.infer<typeof routePreloadsSchema>;

const segments = (p: string) => p.split('/').filter(Boolean);

/**
 * How well a route's path fits, React Router's way: a fixed segment over a `:parameter`, either over a
 * `*` that takes the rest; null when it does not fit at all.
 */
function fit(routePath: string, pathname: string[]): number | null {
  const route = segments(routePath);
  let score = 0;
  for (let i = 0; i < route.length; i++) {
    const part = route[i]!;
    if (part === '*') return score - 2;
    const given = pathname[i];
    if (given === undefined) return null;
    if (part.startsWith(':')) score += 3;
    else if (part === given) score += 10;
    else return null;
  }
  return route.length === pathname.length ? score : null;
}

/** The route a path shows, or undefined (a path only the router redirects from). */
export function routeFor<T extends { path: string }>(routes: readonly T[], pathname: string): T | undefined {
  const given = segments(pathname);
  let best: T | undefined;
  let bestScore = -Infinity;
  for (const route of routes) {
    const score = fit(route.path, given);
    if (score !== null && score > bestScore) {
      best = route;
      bestScore = score;
    }
  }
  return best;
}

type Route = RoutePreloads['routes'][number];

/**
 * The files a page of `route` (routeFor) in `language` loads first: the start, English (every screen's
 * fallback) and the page's language, its route's, and the staff screens' fonts. Nothing for a path no page has.
 */
export function preloadsFor(table: RoutePreloads, route: Route | undefined, language: Language): string[] {
  if (!route) return [];
  const catalogues = language === 'en' ? table.catalogues.en : [...table.catalogues.en, ...table.catalogues[language]];
  return [...new Set([...table.start, ...catalogues, ...route.files, ...(table.fonts ?? [])])];
}

/** A preloaded file's link: a module, or a font (which a browser fetches anonymously, hence crossorigin). */
export function preloadLink(file: string): string {
  return file.endsWith('.woff2')
    ? `<link rel="preload" as="font" type="font/woff2" crossorigin href="/${file}">`
    : `<link rel="modulepreload" crossorigin href="/${file}">`;
}
