/**
 * The modules each staff screen preloads (docs/decisions/0075-screens-preload-their-modules.md): the build reads
 * the router's pages and the manifest into a table (scripts/vite-route-preloads.ts), and the server writes a
 * path's files into the app's page (src/server/web/app-page.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueString, routePreloads, routerPages } from '../scripts/vite-route-preloads';
import { SESSION_COOKIE } from '../src/server/lib/sessions';
import { preferenceCookie } from '../src/shared/preferences';
import { LANGUAGE_COOKIE } from '../src/shared/i18n/negotiate';
import { preloadsFor, ROUTE_PRELOADS_FILE, routeFor, type RoutePreloads } from '../src/server/web/route-preloads';
import { appWithWebBuild, type WebBuildApp } from './helpers/web-build';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe("the router's pages", () => {
  const pages = routerPages(root);
  const byPath = (p: string) => pages.find((page) => page.path === p);

  it('lists every page() of the router, each with modules that exist', () => {
    const source = fs.readFileSync(path.join(root, 'src/web/app/router.tsx'), 'utf8');
    // Every call (not the function's own declaration).
    expect(pages).toHaveLength(source.match(/\bpage\(/g)!.length - 1);
    for (const page of pages) for (const m of page.modules) expect(fs.existsSync(path.join(root, m)), m).toBe(true);
  });

  it('gives a staff screen its layout first, then its page; a blank page only its page', () => {
    expect(byPath('products')?.modules).toEqual([
      'src/web/app/layouts/default-layout.tsx',
      'src/web/features/products/pages/products-page.tsx',
    ]);
    expect(byPath('edit-product/:id')?.modules).toEqual([
      'src/web/app/layouts/default-layout.tsx',
      'src/web/features/products/pages/edit-product-page.tsx',
    ]);
    expect(byPath('machine-data/quality')?.modules.at(-1)).toBe('src/web/features/quality/pages/quality-page.tsx');
    expect(byPath('register')?.modules).toEqual(['src/web/features/auth/pages/register-page.tsx']);
    // A loader named once and used twice.
    expect(byPath('*')?.modules).toEqual(['src/web/features/misc/pages/not-found-page.tsx']);
  });

  it("knows a staff screen's title, which the server draws into its frame; a blank page has none", () => {
    expect(byPath('products')?.titleKey).toBe('pages.products');
    expect(byPath('machines')?.titleKey).toBe('machineScreens.benches.title');
    expect(byPath('register')?.titleKey).toBeUndefined();
    expect(byPath('search')?.titleKey).toBeUndefined();
    // The line under the title, where the screen has one: drawn into the frame too.
    expect(byPath('dashboard')?.introKey).toBe('dashboard.intro');
    expect(byPath('machine-data/quality')?.introKey).toBe('quality.intro');
    expect(byPath('products')?.introKey).toBeUndefined();
    expect(catalogueString('en', 'pages.products')).toBe('Products');
    expect(catalogueString('zh', 'pages.products')).toBe('產品');
    expect(() => catalogueString('en', 'pages.noSuchScreen')).toThrow(/no string pages.noSuchScreen/);
  });
});

describe('the table the build writes', () => {
  const manifest = {
    '_main-app-a.js': { file: 'assets/main-app-a.js', name: 'main-app', imports: ['_react-r.js', '_mui-core-m.js'] },
    'src/web/lib/i18n.ts': { file: 'assets/i18n-b.js', src: 'src/web/lib/i18n.ts', imports: ['_react-r.js'] },
    '_react-r.js': { file: 'assets/react-r.js', name: 'react' },
    '_mui-core-m.js': { file: 'assets/mui-core-m.js', name: 'mui-core', imports: ['_react-r.js'] },
    'src/web/lib/catalogue-en.ts': { file: 'assets/catalogue-en-c.js', src: 'src/web/lib/catalogue-en.ts' },
    'src/web/lib/catalogue-zh.ts': { file: 'assets/catalogue-zh-d.js', src: 'src/web/lib/catalogue-zh.ts', imports: ['_react-r.js'] },
    'src/web/app/layouts/default-layout.tsx': { file: 'assets/default-layout-e.js', imports: ['_mui-core-m.js', '_Tooltip-t.js'] },
    '_Tooltip-t.js': { file: 'assets/Tooltip-t.js', imports: ['_react-r.js'] },
    'src/web/features/products/pages/products-page.tsx': { file: 'assets/products-page-f.js', imports: ['_Tooltip-t.js', '_Table-g.js'] },
    '_Table-g.js': { file: 'assets/Table-g.js' },
    // The entry, with the font files its stylesheet names (@fontsource's, each face in woff2 and woff).
    'index.html': {
      file: 'assets/index-i.js',
      src: 'index.html',
      isEntry: true,
      assets: [
        'assets/roboto-latin-ext-500-normal-l.woff2',
        'assets/roboto-latin-400-normal-p.woff2',
        'assets/roboto-latin-500-normal-q.woff2',
        'assets/roboto-latin-500-normal-r.woff',
        'assets/roboto-latin-700-normal-s.woff2',
      ],
    },
  };

  it("lists the start's files once, and each route's and catalogue's beyond them", () => {
    const table = routePreloads(
      manifest,
      [
        {
          path: 'products',
          modules: ['src/web/app/layouts/default-layout.tsx', 'src/web/features/products/pages/products-page.tsx'],
          titleKey: 'pages.products',
          introKey: 'products.intro',
        },
        { path: 'register', modules: ['src/web/features/products/pages/products-page.tsx'] },
      ],
      (language, key) => `${key} in ${language}`,
    );
    expect(table.start.sort()).toEqual(['assets/i18n-b.js', 'assets/main-app-a.js', 'assets/mui-core-m.js', 'assets/react-r.js']);
    expect(table.catalogues).toEqual({ en: ['assets/catalogue-en-c.js'], zh: ['assets/catalogue-zh-d.js'] });
    expect(table.routes).toEqual([
      {
        path: 'products',
        files: ['assets/default-layout-e.js', 'assets/Tooltip-t.js', 'assets/products-page-f.js', 'assets/Table-g.js'],
        title: { en: 'pages.products in en', zh: 'pages.products in zh' },
        intro: { en: 'products.intro in en', zh: 'products.intro in zh' },
      },
      { path: 'register', files: ['assets/products-page-f.js', 'assets/Tooltip-t.js', 'assets/Table-g.js'] },
    ]);
    expect(table.appTitle).toEqual({ en: 'app.title in en', zh: 'app.title in zh' });
    // Of the faces, the one the frame does not draw in: Roboto 500, Latin, woff2.
    expect(table.fonts).toEqual(['assets/roboto-latin-500-normal-q.woff2']);
  });

  it("stops the build when the staff screens' Roboto 500 is not one file", () => {
    const without = { ...manifest, 'index.html': { ...manifest['index.html'], assets: ['assets/roboto-latin-400-normal-p.woff2'] } };
    expect(() => routePreloads(without, [])).toThrow(/0 files of Roboto 500/);
  });

  it('stops the build when a page has no chunk', () => {
    expect(() => routePreloads(manifest, [{ path: 'gone', modules: ['src/web/features/gone/pages/gone-page.tsx'] }])).toThrow(
      /no chunk of src\/web\/features\/gone/,
    );
  });
});

describe('which route a path shows', () => {
  const routes = [
    'products',
    'edit-product/:id',
    'machine-data',
    'machine-data/quality',
    'machine-data/:id',
    'pages/misc/not-found/*',
    '*',
  ].map((p) => ({ path: p }));
  const route = (pathname: string) => routeFor(routes, pathname)?.path;

  it('prefers a fixed segment to a parameter, and either to the rest', () => {
    expect(route('/products')).toBe('products');
    expect(route('/products/')).toBe('products');
    expect(route('/edit-product/0b7c')).toBe('edit-product/:id');
    expect(route('/machine-data/quality')).toBe('machine-data/quality');
    expect(route('/machine-data/42')).toBe('machine-data/:id');
    expect(route('/pages/misc/not-found/a/b')).toBe('pages/misc/not-found/*');
    expect(route('/edit-product')).toBe('*');
    expect(route('/nothing/here')).toBe('*');
  });

  it('finds nothing for a path no page has', () => {
    expect(routeFor([{ path: 'products' }], '/')).toBeUndefined();
  });
});

const TABLE: RoutePreloads = {
  start: ['assets/main-app-a.js', 'assets/react-r.js'],
  catalogues: { en: ['assets/catalogue-en-c.js'], zh: ['assets/catalogue-zh-d.js'] },
  fonts: ['assets/roboto-latin-500-normal-q.woff2'],
  routes: [
    { path: 'products', files: ['assets/products-page-f.js', 'assets/react-r.js'] },
    { path: 'edit-product/:id', files: ['assets/edit-product-page-h.js'] },
    { path: '*', files: ['assets/not-found-page-n.js'] },
  ],
};

describe('the files of a page', () => {
  it('are the start, English and the page language, then the route and the fonts, each once', () => {
    expect(preloadsFor(TABLE, routeFor(TABLE.routes, '/products'), 'en')).toEqual([
      'assets/main-app-a.js',
      'assets/react-r.js',
      'assets/catalogue-en-c.js',
      'assets/products-page-f.js',
      'assets/roboto-latin-500-normal-q.woff2',
    ]);
    expect(preloadsFor(TABLE, routeFor(TABLE.routes, '/products'), 'zh')).toContain('assets/catalogue-zh-d.js');
    expect(preloadsFor(TABLE, routeFor([], '/products'), 'en')).toEqual([]);
  });
});

describe("the app's page as the server sends it", () => {
  const FONTS = '@font-face{font-family:Roboto;src:url(/assets/roboto-latin-400-normal-x.woff2) format("woff2")}';
  const INDEX =
    '<!doctype html><html lang="en"><head><title>Test Report Center</title><link rel="stylesheet" crossorigin href="/assets/index-s.css"></head><body><div id="app"></div></body></html>';
  /** The page as built, its stylesheet written in. */
  const PAGE = INDEX.replace(/<link rel="stylesheet"[^>]*>/, `<style>${FONTS}</style>`);
  let web: WebBuildApp;
  const preloaded = (html: string) => [...html.matchAll(/<link rel="modulepreload" crossorigin href="\/([^"]+)">/g)].map((m) => m[1]);

  beforeAll(async () => {
    web = await appWithWebBuild({ 'index.html': INDEX, 'assets/index-s.css': FONTS, [ROUTE_PRELOADS_FILE]: JSON.stringify(TABLE) });
  });
  afterAll(() => web?.close());

  it("lists the path's modules in the head, in the visitor's language, revalidated and varying by language", async () => {
    const res = await web.app.inject({ url: '/products?page=2', headers: { 'accept-language': 'en-GB' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.vary).toMatch(/Accept-Language, Cookie/);
    expect(preloaded(res.body)).toEqual([
      'assets/main-app-a.js',
      'assets/react-r.js',
      'assets/catalogue-en-c.js',
      'assets/products-page-f.js',
    ]);
    // The font as a font, fetched as the stylesheet's @font-face fetches it (anonymously), so the two are one.
    expect(res.body).toContain(
      '<link rel="preload" as="font" type="font/woff2" crossorigin href="/assets/roboto-latin-500-normal-q.woff2">',
    );
    expect(res.body).toMatch(/<\/head><body><div id="app"><\/div>/);
    // The stylesheet written in: the first paint waits for no file.
    expect(res.body).toContain(`<style>${FONTS}</style>`);
    expect(res.body).not.toContain('rel="stylesheet"');

    const zh = await web.app.inject({ url: '/edit-product/7', headers: { 'accept-language': 'zh-TW,zh;q=0.9' } });
    expect(preloaded(zh.body)).toEqual([
      'assets/main-app-a.js',
      'assets/react-r.js',
      'assets/catalogue-en-c.js',
      'assets/catalogue-zh-d.js',
      'assets/edit-product-page-h.js',
    ]);
    // The language chosen before (its cookie) over the browser's.
    const chosen = await web.app.inject({ url: '/products', headers: { 'accept-language': 'zh-TW', cookie: `${LANGUAGE_COOKIE}=en` } });
    expect(preloaded(chosen.body)).not.toContain('assets/catalogue-zh-d.js');
    const unknown = await web.app.inject({ url: '/no/such/screen' });
    expect(preloaded(unknown.body).at(-1)).toBe('assets/not-found-page-n.js');
  });

  it('answers a revisit of an unchanged build with 304, and a visit in another language with its own page', async () => {
    const first = await web.app.inject({ url: '/products', headers: { 'accept-language': 'en' } });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/"[\w-]{20}"$/);
    const again = await web.app.inject({ url: '/products?page=3', headers: { 'accept-language': 'en', 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers['cache-control']).toBe('no-cache');
    expect(again.headers.vary).toMatch(/Accept-Language, Cookie/);
    // Another language lists another catalogue: another page, another tag, sent whole.
    const zh = await web.app.inject({ url: '/products', headers: { 'accept-language': 'zh-TW', 'if-none-match': etag } });
    expect(zh.statusCode).toBe(200);
    expect(zh.headers.etag).not.toBe(etag);
    expect(preloaded(zh.body)).toContain('assets/catalogue-zh-d.js');
    // Another screen too.
    const other = await web.app.inject({ url: '/edit-product/7', headers: { 'accept-language': 'en', 'if-none-match': etag } });
    expect(other.statusCode).toBe(200);
  });

  it('never serves the table itself', async () => {
    expect((await web.app.inject({ url: `/${ROUTE_PRELOADS_FILE}` })).statusCode).toBe(404);
  });

  it('reads a rebuilt table without a restart, and lists no module when the table is unreadable', async () => {
    const file = path.join(web.dir, ROUTE_PRELOADS_FILE);
    const renamed = { ...TABLE, routes: [{ path: 'products', files: ['assets/products-page-z.js'] }] };
    fs.writeFileSync(file, JSON.stringify(renamed));
    // A different size, so the stamp differs however coarse the file system's clock.
    const rebuilt = await web.app.inject({ url: '/products' });
    expect(preloaded(rebuilt.body)).toContain('assets/products-page-z.js');
    // The page made for the build before is not answered as unchanged.
    const before = await web.app.inject({ url: '/products', headers: { 'if-none-match': 'W/"x"' } });
    expect(before.statusCode).toBe(200);
    for (const broken of ['{', JSON.stringify({ ...TABLE, start: ['../../etc/passwd'] })]) {
      fs.writeFileSync(file, broken);
      const res = await web.app.inject({ url: '/products' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(PAGE);
    }
  });

  describe("a staff screen's frame (src/server/web/staff-shell.ts)", () => {
    const FRAMED: RoutePreloads = {
      ...TABLE,
      appTitle: { en: 'Test Report Center', zh: '測試報告中心' },
      routes: [
        { path: 'products', files: ['assets/products-page-f.js'], title: { en: 'Products', zh: '產品' } },
        {
          path: 'dashboard',
          files: ['assets/dashboard-page-d.js'],
          title: { en: 'Dashboard', zh: '儀表板' },
          intro: { en: 'Requests & figures <at a glance>', zh: '一覽請求與數據' },
        },
        { path: 'register', files: ['assets/register-page-r.js'] },
      ],
    };
    let framed: WebBuildApp;
    const session = `${SESSION_COOKIE}=${'a'.repeat(43)}`;
    const frameOf = (html: string) => /<div id="trc-shell"[^>]*>/.exec(html)?.[0];

    beforeAll(async () => {
      framed = await appWithWebBuild({ 'index.html': INDEX, 'assets/index-s.css': FONTS, [ROUTE_PRELOADS_FILE]: JSON.stringify(FRAMED) });
    });
    afterAll(() => framed?.close());

    it("draws the bar, the navigation's column and the screen's title before the app, in the page's language", async () => {
      const en = await framed.app.inject({ url: '/products?page=2', headers: { cookie: session, 'accept-language': 'en' } });
      expect(en.statusCode).toBe(200);
      expect(en.body).toMatch(/<h1 class="trc-shell-title">Products<\/h1>.*<\/div><div id="app"><\/div>/s);
      expect(en.body).toContain('<span class="trc-shell-name">Test Report Center</span>');
      // A picture of what is coming: hidden from assistive technology, and never focusable.
      expect(frameOf(en.body)).toMatch(/aria-hidden="true" inert/);
      // The default look: light, the full navigation, the semi-dark column, boxed content.
      expect(frameOf(en.body)).toMatch(/data-theme="light" data-nav="full" data-semi="semi" data-width="boxed"/);
      const zh = await framed.app.inject({ url: '/products', headers: { cookie: `${session}; ${LANGUAGE_COOKIE}=zh` } });
      expect(zh.body).toContain('<h1 class="trc-shell-title">產品</h1>');
      expect(zh.body).toContain('測試報告中心');
      // A screen without an introduction has no line under its title.
      expect(en.body).not.toContain('trc-shell-intro"');
    });

    it("draws the line under the title where the screen has one, escaped, in the page's language", async () => {
      const en = await framed.app.inject({ url: '/dashboard', headers: { cookie: session, 'accept-language': 'en' } });
      expect(en.body).toContain(
        '<h1 class="trc-shell-title">Dashboard</h1><p class="trc-shell-intro">Requests &amp; figures &lt;at a glance&gt;</p>',
      );
      const zh = await framed.app.inject({ url: '/dashboard', headers: { cookie: `${session}; ${LANGUAGE_COOKIE}=zh` } });
      expect(zh.body).toContain('<p class="trc-shell-intro">一覽請求與數據</p>');
    });

    it('follows the preferences kept in cookies, and takes the default for a value it does not know', async () => {
      const prefs = (values: Record<string, string>) =>
        Object.entries(values)
          .map(([k, v]) => `${preferenceCookie(k as never)}=${encodeURIComponent(v)}`)
          .join('; ');
      const dark = await framed.app.inject({
        url: '/products',
        headers: { cookie: `${session}; ${prefs({ theme: 'dark', verticalNavCollapsed: 'true', contentWidth: 'wide' })}` },
      });
      expect(frameOf(dark.body)).toMatch(/data-theme="dark" data-nav="collapsed" data-semi="semi" data-width="wide"/);
      const row = await framed.app.inject({
        url: '/products',
        headers: { cookie: `${session}; ${prefs({ layout: 'horizontal', navbarType: 'hidden' })}` },
      });
      // A horizontal layout keeps its bar.
      expect(frameOf(row.body)).toMatch(/data-nav="row"/);
      expect(row.body).toContain('class="trc-shell-bar"');
      const hidden = await framed.app.inject({ url: '/products', headers: { cookie: `${session}; ${prefs({ navbarType: 'hidden' })}` } });
      expect(hidden.body).not.toContain('class="trc-shell-bar"');
      const forged = await framed.app.inject({
        url: '/products',
        headers: { cookie: `${session}; ${prefs({ theme: '"><script>alert(1)</script>', layout: 'x' })}` },
      });
      expect(frameOf(forged.body)).toMatch(/data-theme="light" data-nav="full"/);
      expect(forged.body).not.toContain('alert(1)');
    });

    it('draws no frame without a session, nor for a page outside the staff frame', async () => {
      const signedOut = await framed.app.inject({ url: '/products' });
      expect(signedOut.body).not.toContain('trc-shell');
      expect(signedOut.body).toContain('<body><div id="app"></div>');
      const blank = await framed.app.inject({ url: '/register', headers: { cookie: session } });
      expect(blank.body).not.toContain('trc-shell');
      const unknown = await framed.app.inject({ url: '/no/such/screen', headers: { cookie: session } });
      expect(unknown.body).not.toContain('trc-shell');
    });

    it('tags each frame apart, and answers its revisit with 304', async () => {
      const light = await framed.app.inject({ url: '/products', headers: { cookie: session } });
      const dark = await framed.app.inject({ url: '/products', headers: { cookie: `${session}; ${preferenceCookie('theme')}=dark` } });
      const none = await framed.app.inject({ url: '/products' });
      const tags = new Set([light.headers.etag, dark.headers.etag, none.headers.etag]);
      expect(tags.size).toBe(3);
      const again = await framed.app.inject({
        url: '/products',
        headers: { cookie: session, 'if-none-match': String(light.headers.etag) },
      });
      expect(again.statusCode).toBe(304);
      const otherLook = await framed.app.inject({
        url: '/products',
        headers: { cookie: `${session}; ${preferenceCookie('theme')}=dark`, 'if-none-match': String(light.headers.etag) },
      });
      expect(otherLook.statusCode).toBe(200);
      // A value no look has is the default look: the same page, the same tag.
      const forged = await framed.app.inject({
        url: '/products',
        headers: { cookie: `${session}; ${preferenceCookie('theme')}=%3Cscript%3E` },
      });
      expect(forged.headers.etag).toBe(light.headers.etag);
      expect(forged.body).toBe(light.body);
    });
  });
});
