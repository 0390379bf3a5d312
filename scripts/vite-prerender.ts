/**
 * A Vite build plugin: after the client build, draws the first screens (src/web/prerender/render.tsx) in
 * each language into copies of the built index.html, dist/web/prerendered/<screen>.<lang>.html, which the
 * server sends for /search and /login (src/server/web/pages.ts), each with its .br and .gz. The page then
 * shows before any JavaScript has arrived (docs/decisions/0022-prerendered-first-screens.md).
 * Both are plain markup styled by public.css and hydrated by their own small bundles; each carries its
 * language and, for zh, its strings (docs/decisions/0026, 0074).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createServer, type Plugin } from 'vite';
import { escapeHtml } from '../src/shared/html-escape';
import { LANGUAGES, type Language } from '../src/shared/i18n/index';
import { htmlLang } from '../src/shared/i18n/negotiate';
import { PRERENDERED_SCREENS, prerenderedFile, type PrerenderedScreen } from '../src/server/web/prerendered';
import type { PrerenderedHtml } from '../src/web/prerender/render';
import { afterClientBuild } from './vite-after-build';
import { precompressFile } from './vite-precompress';

interface RenderModule {
  renderScreen(screen: PrerenderedScreen, language: Language): PrerenderedHtml;
  publicCatalogue(language: Language): Record<string, unknown>;
}

/** JSON inside <script>: nothing in it may close the element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** index.html's own (English) description, however the build has laid it out. */
const DESCRIPTION = /<meta\s+name="description"\s+content="[^"]*"\s*\/?>\s*/;

/** The built index.html with a screen drawn into it. Exported for the test of the page's assembly. */
export function assemblePage(
  template: string,
  screen: PrerenderedScreen,
  language: Language,
  out: PrerenderedHtml,
  data?: unknown,
): string {
  // The page's stylesheet (public.css) written in as it is.
  const style = `<style>${out.css}</style>`;
  const dataScript = data === undefined ? '' : `<script type="application/json" id="trc-prerendered">${scriptJson(data)}</script>`;
  // Both screens are drawn into the app's container, which React hydrates.
  const body = `<div id="app">${out.html}</div>${dataScript}`;
  // The description in the page's language, before the title as in index.html.
  const description = `<meta name="description" content="${escapeHtml(out.description)}" />`;
  const replaced = template
    .replace(/<html lang="[^"]*"/, `<html lang="${htmlLang(language)}"`)
    .replace(DESCRIPTION, '')
    .replace(/<title>[^<]*<\/title>/, `${description}<title>${escapeHtml(out.title)}</title>`)
    .replace('</head>', `${style}</head>`)
    .replace('<div id="app"></div>', body);
  if (!replaced.includes('id="app"') || replaced === template) throw new Error('index.html has no <div id="app"></div> to draw into');
  return replaced;
}

/**
 * The built stylesheets (the fonts' @font-face rules) written into the page: a render-blocking stylesheet
 * costs one more round trip before the first paint (562 ms on "Slow 4G"); the fonts themselves still load
 * as files, and text shows in a fallback font until they are there (font-display: swap).
 */
export function inlineStylesheets(html: string, outDir: string): string {
  return html.replace(/<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/g, (_tag, file: string) => {
    const css = fs.readFileSync(path.join(outDir, file), 'utf8');
    if (/<\/style/i.test(css)) throw new Error(`${file} cannot be inlined`);
    return `<style>${css}</style>`;
  });
}

/**
 * The public pages' stylesheet as built (src/web/public-app/public.css, with the chunk of the public page's
 * module): written into the prerendered /search and /login, so that they paint before any script or
 * stylesheet arrives.
 */
export function publicStylesheet(outDir: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    { file: string; name?: string; css?: string[]; imports?: string[] }
  >;
  // Keyed by its source, or (imported by both the entry and the staff app's /search route) by its chunk's name.
  const key =
    'src/web/public-app/main-public.tsx' in manifest
      ? 'src/web/public-app/main-public.tsx'
      : Object.keys(manifest).find((k) => manifest[k]!.name === 'main-public' && manifest[k]!.file.endsWith('.js'));
  // Its own stylesheet, or that of a chunk it imports (the sign-in page shares public.css, which the build may
  // then put with a chunk both import).
  const files: string[] = [];
  const seen = new Set<string>();
  const collect = (k: string | undefined) => {
    const chunk = k === undefined || seen.has(k) ? undefined : manifest[k];
    if (!chunk) return;
    seen.add(k!);
    files.push(...(chunk.css ?? []));
    for (const imported of chunk.imports ?? []) collect(imported);
  };
  collect(key);
  if (files.length === 0) throw new Error('the public page has no stylesheet in the build');
  const css = [...new Set(files)].map((f) => fs.readFileSync(path.join(outDir, f), 'utf8')).join('');
  if (/<\/style/i.test(css)) throw new Error('the public stylesheet cannot be inlined');
  return css;
}

export async function prerenderInto(root: string, outDir: string): Promise<string[]> {
  const template = inlineStylesheets(fs.readFileSync(path.join(outDir, 'index.html'), 'utf8'), outDir);
  const publicCss = publicStylesheet(outDir);
  const server = await createServer({
    configFile: false,
    root,
    logLevel: 'error',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, ws: false, watch: null },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  const written: string[] = [];
  try {
    const render = (await server.ssrLoadModule('/src/web/prerender/render.tsx')) as RenderModule;
    fs.mkdirSync(path.join(outDir, 'prerendered'), { recursive: true });
    for (const screen of PRERENDERED_SCREENS) {
      for (const language of LANGUAGES) {
        const out = { ...render.renderScreen(screen, language), css: publicCss };
        // English strings are in the pages' bundles; Chinese ones come with the page.
        const data = { language, ...(language === 'en' ? {} : { catalogue: render.publicCatalogue(language) }) };
        const file = path.join(outDir, prerenderedFile(screen, language));
        fs.writeFileSync(`${file}.tmp`, assemblePage(template, screen, language, out, data));
        fs.renameSync(`${file}.tmp`, file);
        precompressFile(file);
        written.push(file);
      }
    }
  } finally {
    await server.close();
  }
  return written;
}

export function prerender(): Plugin {
  return afterClientBuild('trc-prerender', async (root, outDir) => {
    await prerenderInto(root, outDir);
  });
}
