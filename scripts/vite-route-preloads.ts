/**
 * A Vite build plugin: after the client build, writes dist/web/.vite/route-preloads.json, the JavaScript each
 * staff screen needs before it can draw: the staff app's start (src/web/main.tsx loads it), the catalogue of
 * each language, and per route of the router its layout and its page with everything they import. The server
 * writes these into the page it sends for that route as `<link rel="modulepreload">` (src/server/web/app-page.ts),
 * so a phone fetches them all at once while the page's first script is still on its way, instead of learning
 * of each step's modules only when the step before has run (docs/decisions/0075-screens-preload-their-modules.md).
 *
 * The routes are read from the router's source (src/web/app/router.tsx): each `page(meta, 'path', loader)`
 * call, the module its loader imports, and the modules the `lazy` of each route around it imports (the
 * layout). A page whose module the build does not have stops the build.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import type { Manifest, Plugin } from 'vite';
import { catalogueText, LANGUAGES, type Language } from '../src/shared/i18n/index';
import { ROUTE_PRELOADS_FILE, type RoutePreloads } from '../src/server/web/route-preloads';
import { afterClientBuild } from './vite-after-build';

/**
 * The Roboto face the staff screens draw in that their frame does not (src/web/main.tsx imports
 * @fontsource/roboto's 400, 500 and 700; the frame, src/server/web/staff-shell.ts, draws in 400 and 700):
 * the server preloads it (see routePreloads).
 */
const STAFF_FONTS = /^assets\/roboto-latin-500-normal-[\w-]+\.woff2$/;
/** What src/web/main.tsx imports to start the staff app (loadStaff). */
const STAFF_START = ['src/web/app/main-app.tsx', 'src/web/lib/i18n.ts'];
/** Where src/web/lib/i18n.ts loads each language's catalogue from. */
const catalogueModule = (language: string) => `src/web/lib/catalogue-${language}.ts`;
const ROUTER = 'src/web/app/router.tsx';

export interface RouterPage {
  /** as the router writes it, without the leading slash: `products`, `edit-product/:id`, `*` */
  path: string;
  /** the layouts' modules, outermost first, then the page's own (repository paths) */
  modules: string[];
  /** a staff screen's title (an i18n key; `staffPage('…')` in the router): the server draws its frame first */
  titleKey?: string;
  /** the line under that title (an i18n key; `intro` of `staffPage`'s options), drawn into the frame too */
  introKey?: string;
}

/** The string literal of the first `import('…')` inside `node`, if any. */
function importedSpecifier(node: ts.Node): string | undefined {
  let found: string | undefined;
  const visit = (n: ts.Node) => {
    if (found) return;
    if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = n.arguments;
      if (arg && ts.isStringLiteral(arg)) found = arg.text;
      return;
    }
    ts.forEachChild(n, visit);
  };
  visit(node);
  return found;
}

/** A relative import of `fromFile` as the repository path of the file it names (.tsx or .ts). */
function resolveModule(root: string, fromFile: string, specifier: string): string {
  const base = path.resolve(root, path.dirname(fromFile), specifier);
  for (const ext of ['.tsx', '.ts']) {
    if (fs.existsSync(base + ext))
      return path
        .relative(root, base + ext)
        .split(path.sep)
        .join('/');
  }
  throw new Error(`${fromFile}: cannot find the module ${specifier}`);
}

/**
 * The title and introduction keys of a staff screen's meta, `staffPage('title', { …, intro: 'intro' })`;
 * nothing for any other page.
 */
function staffKeys(meta: ts.Node): Pick<RouterPage, 'titleKey' | 'introKey'> {
  if (!ts.isCallExpression(meta) || !ts.isIdentifier(meta.expression) || meta.expression.text !== 'staffPage') return {};
  const [title, options] = meta.arguments;
  const intro =
    options && ts.isObjectLiteralExpression(options)
      ? options.properties.find(
          (p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === 'intro',
        )?.initializer
      : undefined;
  return {
    ...(title && ts.isStringLiteral(title) ? { titleKey: title.text } : {}),
    ...(intro && ts.isStringLiteral(intro) ? { introKey: intro.text } : {}),
  };
}

/** Every `page(meta, 'path', loader)` of the router, with the modules its route loads (see above). */
export function routerPages(root: string, routerFile = ROUTER): RouterPage[] {
  const source = ts.createSourceFile(
    routerFile,
    fs.readFileSync(path.join(root, routerFile), 'utf8'),
    ts.ScriptTarget.Latest,
    true,
    ts.ScriptKind.TSX,
  );
  // Loaders written once and named (`const notFound = () => import(…)`).
  const named = new Map<string, string>();
  source.forEachChild(function collect(n): void {
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer) {
      const specifier = importedSpecifier(n.initializer);
      if (specifier && ts.isArrowFunction(n.initializer)) named.set(n.name.text, specifier);
    }
    n.forEachChild(collect);
  });
  const pages: RouterPage[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'page') {
      const [meta, routePath, loader] = n.arguments;
      if (!routePath || !ts.isStringLiteral(routePath) || !loader) throw new Error(`${routerFile}: a page() without a path or a loader`);
      const specifier = ts.isIdentifier(loader) ? named.get(loader.text) : importedSpecifier(loader);
      if (!specifier) throw new Error(`${routerFile}: the page ${routePath.text} imports no module`);
      const layouts: string[] = [];
      for (let up = n.parent; up; up = up.parent) {
        if (!ts.isObjectLiteralExpression(up)) continue;
        const lazy = up.properties.find((p) => p.name && ts.isIdentifier(p.name) && p.name.text === 'lazy');
        const layout = lazy && importedSpecifier(lazy);
        if (layout) layouts.unshift(resolveModule(root, routerFile, layout));
      }
      pages.push({
        path: routePath.text,
        modules: [...layouts, resolveModule(root, routerFile, specifier)],
        ...(meta ? staffKeys(meta) : {}),
      });
      return;
    }
    n.forEachChild(visit);
  };
  visit(source);
  if (pages.length === 0) throw new Error(`${routerFile}: no page() found`);
  return pages;
}

/** The manifest's key of a source module: itself, or (a chunk shared with another entry) its chunk's name. */
function chunkKey(manifest: Manifest, module: string): string {
  if (manifest[module]) return module;
  const name = path.basename(module).replace(/\.tsx?$/, '');
  const key = Object.keys(manifest).find((k) => !manifest[k]!.src && manifest[k]!.name === name && manifest[k]!.file.endsWith('.js'));
  if (!key) throw new Error(`the build has no chunk of ${module}`);
  return key;
}

/** The built files of `modules` and of everything they import statically, without those in `known`. */
function filesOf(manifest: Manifest, modules: string[], known: ReadonlySet<string> = new Set()): string[] {
  const files: string[] = [];
  const seen = new Set<string>();
  const walk = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key]!;
    if (!known.has(chunk.file)) files.push(chunk.file);
    for (const imported of chunk.imports ?? []) walk(imported);
  };
  for (const m of modules) walk(chunkKey(manifest, m));
  return files;
}

/** A catalogue's string (`pages.products`); one the language's catalogue lacks stops the build. */
export function catalogueString(language: Language, key: string): string {
  const text = catalogueText(language, key);
  if (text === undefined) throw new Error(`the ${language} catalogue has no string ${key}`);
  return text;
}

/** One value per language. */
const perLanguage = <T>(value: (language: Language) => T) => Object.fromEntries(LANGUAGES.map((l) => [l, value(l)])) as Record<Language, T>;

/**
 * The table the server reads, from the build's manifest and the router's pages; `title` gives a staff
 * screen's title and introduction in a language (catalogueString).
 */
export function routePreloads(
  manifest: Manifest,
  pages: RouterPage[],
  title: (language: Language, key: string) => string = (_l, key) => key,
): RoutePreloads {
  const start = filesOf(manifest, STAFF_START);
  const known = new Set(start);
  // A browser fetches a face only when laid-out text first needs it: the frame's text needs 400 and 700 at
  // once, but 500 (buttons, a card's title, a list's first row) only once the app has drawn the screen. Its
  // arrival then laid the whole screen out again and moved the screen's largest paint later by a round trip.
  // The other two faces are not preloaded: the frame asks for them as it is first laid out, and preloading
  // them took bandwidth from the page's first paint on a slow network (Lighthouse's FCP 1.7-2.0 s to 3.1 s).
  const fonts = (manifest['index.html']?.assets ?? []).filter((f) => STAFF_FONTS.test(f));
  if (fonts.length !== 1) throw new Error(`the build has ${fonts.length} files of Roboto 500 for the staff screens, not one`);
  return {
    start,
    fonts,
    appTitle: perLanguage((l) => title(l, 'app.title')),
    catalogues: perLanguage((l) => filesOf(manifest, [catalogueModule(l)], known)),
    routes: pages.map((p) => ({
      path: p.path,
      files: filesOf(manifest, p.modules, known),
      ...(p.titleKey ? { title: perLanguage((l) => title(l, p.titleKey!)) } : {}),
      ...(p.titleKey && p.introKey ? { intro: perLanguage((l) => title(l, p.introKey!)) } : {}),
    })),
  };
}

export function routePreloadsPlugin(): Plugin {
  return afterClientBuild('trc-route-preloads', (root, outDir) => {
    const manifest = JSON.parse(fs.readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
    fs.writeFileSync(path.join(outDir, ROUTE_PRELOADS_FILE), JSON.stringify(routePreloads(manifest, routerPages(root), catalogueString)));
  });
}
