/**
 * The prerendered first screens as the server sends them (src/server/web/pages.ts): the language variant
 * chosen by the remembered choice, else Accept-Language; compressed as built; revalidated with an ETag;
 * varying by the headers that choose it. And the language negotiation both sides share.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acceptLanguageTags,
  languageFromAcceptLanguage,
  languageFromTags,
  LANGUAGE_COOKIE,
  pageLanguage,
} from '../src/shared/i18n/negotiate';
import { assemblePage, inlineStylesheets, publicStylesheet } from '../scripts/vite-prerender';
import { renderScreen } from '../src/web/prerender/render';
import { translate } from '../src/shared/i18n/index';
import { pickEncoding } from '../src/server/web/pages';
import { storageKey } from '../src/shared/preferences';
import { appWithWebBuild, type WebBuildApp } from './helpers/web-build';

describe('language negotiation', () => {
  it('takes any Chinese tag as zh and anything else we do not speak as en', () => {
    for (const tag of ['zh', 'zh-TW', 'zh-HK', 'zh-Hant', 'zh-Hant-TW', 'ZH-tw', 'zh_TW', 'zh-CN'])
      expect(languageFromTags([tag]), tag).toBe('zh');
    for (const tag of ['en', 'en-US', 'en-GB']) expect(languageFromTags([tag]), tag).toBe('en');
    for (const tags of [[], ['fr'], ['de-DE', 'ja'], ['']]) expect(languageFromTags(tags), tags.join()).toBe('en');
    expect(languageFromTags(['fr', 'zh-TW', 'en'])).toBe('zh');
    expect(languageFromTags(['fr', 'en', 'zh-TW'])).toBe('en');
  });

  it('reads Accept-Language by its weights, keeping the order of equal ones', () => {
    expect(acceptLanguageTags('en-US,en;q=0.9,zh-TW;q=0.8')).toEqual(['en-US', 'en', 'zh-TW']);
    expect(acceptLanguageTags('en;q=0.5, zh-TW')).toEqual(['zh-TW', 'en']);
    expect(acceptLanguageTags('zh-TW;q=0, en;q=0.1')).toEqual(['en']);
    expect(acceptLanguageTags('*, fr;q=x')).toEqual([]);
    expect(languageFromAcceptLanguage('zh-TW,zh;q=0.9,en-US;q=0.8,en;q=0.7')).toBe('zh');
    expect(languageFromAcceptLanguage('fr-FR,fr;q=0.9,zh-HK;q=0.8,en;q=0.7')).toBe('zh');
    expect(languageFromAcceptLanguage('en;q=0.3,zh-Hant;q=0.9')).toBe('zh');
    expect(languageFromAcceptLanguage(undefined)).toBe('en');
    expect(languageFromAcceptLanguage('garbage;;;,,,')).toBe('en');
  });

  it('a remembered choice wins over the browser; an unknown one is ignored', () => {
    expect(pageLanguage('en', 'zh-TW')).toBe('en');
    expect(pageLanguage('zh', 'en-US')).toBe('zh');
    expect(pageLanguage('fr', 'zh-TW')).toBe('zh');
    expect(pageLanguage(undefined, 'de')).toBe('en');
  });

  it('the server reads the cookie the page writes', () => {
    expect(storageKey('language')).toBe(LANGUAGE_COOKIE);
  });

  it('picks the best built encoding the browser takes', () => {
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pickEncoding('gzip')).toBe('gzip');
    expect(pickEncoding(undefined)).toBe('identity');
    expect(pickEncoding('deflate')).toBe('identity');
  });
});

describe('the prerendered page assembled from the built index.html', () => {
  const template =
    '<!doctype html><html lang="en" dir="ltr"><head><title>Test Report Center</title>' +
    '<link rel="stylesheet" crossorigin href="/assets/index-abc.css"></head><body><div id="app"></div>' +
    '<script type="module" src="/assets/index-abc.js"></script></body></html>';
  const drawn = {
    html: '<main><textarea id="serial-input"></textarea></main>',
    css: '.pp{color:red}',
    title: 'A < B',
    description: 'Say "A" & <B>',
  };

  it("replaces index.html's English description with the page's, wherever the build put its attributes", () => {
    const shell = template.replace('<title>', '<meta\n      name="description"\n      content="The English one."\n    />\n    <title>');
    const html = assemblePage(shell, 'search', 'zh', drawn, { language: 'zh' });
    expect(html.match(/<meta name="description"/g)).toHaveLength(1);
    expect(html).not.toContain('The English one.');
    expect(html).toContain('<meta name="description" content="Say &quot;A&quot; &amp; &lt;B&gt;" /><title>A &lt; B</title>');
    // A template without one gets one too.
    expect(assemblePage(template, 'login', 'en', drawn, { language: 'en' })).toContain('<meta name="description" content="Say');
  });

  it("index.html's description is the staff app's English one from the catalogue", () => {
    const index = fs.readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../index.html'), 'utf8');
    const content = index.match(/<meta\s+name="description"\s+content="([^"]*)"/)?.[1];
    expect(content).toBe(translate('en', 'app.meta.staff'));
  });

  it('draws each screen with its description in its language', () => {
    for (const language of ['en', 'zh'] as const) {
      expect(renderScreen('search', language).description).toBe(translate(language, 'app.meta.search'));
      expect(renderScreen('login', language).description).toBe(translate(language, 'app.meta.staff'));
    }
    expect(translate('zh', 'app.meta.search')).not.toBe(translate('en', 'app.meta.search'));
  });

  it('/search: drawn into the container, its language and strings for hydration, nothing that closes the script', () => {
    const html = assemblePage(template, 'search', 'zh', drawn, { language: 'zh', catalogue: { search: { x: '</script><b>' } } });
    expect(html).toContain('<html lang="zh-Hant" dir="ltr">');
    expect(html).toContain('<title>A &lt; B</title>');
    expect(html).toContain('<style>.pp{color:red}</style></head>');
    expect(html).toContain(
      '<div id="app"><main><textarea id="serial-input"></textarea></main></div><script type="application/json" id="trc-prerendered">',
    );
    expect(html).not.toContain('</script><b>');
    const json = html.match(/id="trc-prerendered">(.*?)<\/script>/)![1]!;
    expect(JSON.parse(json)).toEqual({ language: 'zh', catalogue: { search: { x: '</script><b>' } } });
  });

  it("finds the public page's built stylesheet in the manifest, by its module or by its shared chunk's name", () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-prerender-'));
    try {
      fs.mkdirSync(path.join(out, '.vite'), { recursive: true });
      fs.mkdirSync(path.join(out, 'assets'));
      fs.writeFileSync(path.join(out, 'assets', 'main-public-x.css'), '.pp{color:red}');
      const write = (manifest: unknown) => fs.writeFileSync(path.join(out, '.vite', 'manifest.json'), JSON.stringify(manifest));
      write({ 'src/web/public-app/main-public.tsx': { file: 'assets/main-public-y.js', css: ['assets/main-public-x.css'] } });
      expect(publicStylesheet(out)).toBe('.pp{color:red}');
      write({ '_main-public-y.js': { file: 'assets/main-public-y.js', name: 'main-public', css: ['assets/main-public-x.css'] } });
      expect(publicStylesheet(out)).toBe('.pp{color:red}');
      // Put with a chunk that the public page and the sign-in page both import.
      write({
        'src/web/public-app/main-public.tsx': { file: 'assets/main-public-y.js', imports: ['_look.js', '_react.js'] },
        '_look.js': { file: 'assets/look.js', imports: ['_react.js'], css: ['assets/main-public-x.css'] },
        '_react.js': { file: 'assets/react.js' },
      });
      expect(publicStylesheet(out)).toBe('.pp{color:red}');
      write({ 'index.html': { file: 'assets/index.js' } });
      expect(() => publicStylesheet(out)).toThrow(/no stylesheet/);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it('/search is drawn without MUI, in each language, with a serial form that works without scripts', () => {
    for (const [language, heading] of [
      ['en', translate('en', 'pages.search')],
      ['zh', translate('zh', 'search.lookup.title')],
    ] as const) {
      const out = renderScreen('search', language);
      expect(out.html).not.toMatch(/class="[^"]*(Mui|css-)/);
      expect(out.html).toContain(heading);
      // A real GET form to /search with the field named serial: Enter or Search before hydration loads /search?serial=…
      const form = out.html.match(/<form[^>]*>/)![0];
      expect(form).toContain('action="/search"');
      expect(form).toContain('method="get"');
      expect(out.html.match(/<textarea[^>]*>/)![0]).toContain('name="serial"');
      expect(out.title).toBe(translate(language, 'pages.search'));
    }
  });

  it('/login: drawn into the container the sign-in page hydrates, with its language', () => {
    const html = assemblePage(template, 'login', 'zh', drawn, { language: 'zh' });
    expect(html).toContain('<html lang="zh-Hant" dir="ltr">');
    expect(html).toContain(
      '<div id="app"><main><textarea id="serial-input"></textarea></main></div><script type="application/json" id="trc-prerendered">{"language":"zh"}</script>',
    );
    expect(html).not.toContain('app-shell');
  });

  it('/login is drawn without MUI, in each language, its button waiting for the page to start', () => {
    for (const language of ['en', 'zh'] as const) {
      const out = renderScreen('login', language);
      expect(out.html).not.toMatch(/class="[^"]*(Mui|css-)/);
      expect(out.html).toContain(`<h1 class="pp-h5">${translate(language, 'pages.login')}</h1>`);
      // method=post: were it sent before the script runs, no password would go into a URL.
      expect(out.html.match(/<form[^>]*>/)![0]).toContain('method="post"');
      expect(out.html.match(/<button type="submit"[^>]*>/)![0]).toContain('disabled=""');
      expect(out.html).toContain('href="/forgot-password"');
      expect(out.title).toBe(translate(language, 'pages.login'));
    }
  });

  it('writes the built stylesheet into the page instead of a link to it', () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-prerender-'));
    try {
      fs.mkdirSync(path.join(out, 'assets'));
      fs.writeFileSync(path.join(out, 'assets', 'index-abc.css'), '@font-face{font-family:Roboto;src:url(/assets/r.woff2)}');
      const html = inlineStylesheets(template, out);
      expect(html).toContain('<style>@font-face{font-family:Roboto;src:url(/assets/r.woff2)}</style>');
      expect(html).not.toContain('rel="stylesheet"');
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});

let web: WebBuildApp;
let app: FastifyInstance;

/** A page as the prerender writes it, with its brotli copy. */
function page(name: string, lang: string, text: string): Record<string, string | Buffer> {
  const html = `<!doctype html><html lang="${lang}"><title>${text}</title><div id="app"><textarea id="serial-input" name="serial"></textarea>${text}</div>`;
  return { [`prerendered/${name}`]: html, [`prerendered/${name}.br`]: zlib.brotliCompressSync(html) };
}

beforeAll(async () => {
  web = await appWithWebBuild({
    ...page('search.en.html', 'en', 'Find your valve'),
    ...page('search.zh.html', 'zh-Hant', '查詢您的閥門'),
    ...page('login.en.html', 'en', 'Sign in'),
  });
  app = web.app;
});
afterAll(() => web.close());

describe('the prerendered pages', () => {
  it('serves /search in the language of Accept-Language, with the serial field in the HTML', async () => {
    const zh = await app.inject({ url: '/search', headers: { 'accept-language': 'zh-TW,zh;q=0.9,en;q=0.8' } });
    expect(zh.statusCode).toBe(200);
    expect(zh.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(zh.body).toContain('<html lang="zh-Hant">');
    expect(zh.body).toContain('id="serial-input"');
    expect(zh.body).toContain('查詢您的閥門');
    expect(zh.headers['content-language']).toBe('zh-Hant');
    for (const header of ['accept-language', 'cookie', 'accept-encoding']) expect(String(zh.headers.vary).toLowerCase()).toContain(header);
    expect(zh.headers['cache-control']).toBe('no-cache');

    const en = await app.inject({ url: '/search?serial=ABC', headers: { 'accept-language': 'fr-FR,en;q=0.5' } });
    expect(en.body).toContain('<html lang="en">');
    expect(en.body).toContain('Find your valve');
    const none = await app.inject({ url: '/search' });
    expect(none.body).toContain('Find your valve');
  });

  it('a language chosen on the page before (its cookie) wins over Accept-Language', async () => {
    const en = await app.inject({ url: '/search', headers: { 'accept-language': 'zh-TW', cookie: `${LANGUAGE_COOKIE}=en` } });
    expect(en.body).toContain('<html lang="en">');
    const zh = await app.inject({ url: '/search', headers: { 'accept-language': 'en-US', cookie: `other=1; ${LANGUAGE_COOKIE}=zh` } });
    expect(zh.body).toContain('<html lang="zh-Hant">');
    const junk = await app.inject({ url: '/search', headers: { 'accept-language': 'zh-TW', cookie: `${LANGUAGE_COOKIE}=xx` } });
    expect(junk.body).toContain('<html lang="zh-Hant">');
  });

  it('sends the brotli copy built beside the page to a browser that takes it', async () => {
    const res = await app.inject({ url: '/search', headers: { 'accept-language': 'zh-TW', 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toContain('查詢您的閥門');
    // No gzip copy of these small test pages: sent as they are, not compressed again per request.
    const gz = await app.inject({ url: '/search', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBeUndefined();
    expect(gz.body).toContain('Find your valve');
  });

  it('answers a revalidation of the same variant with 304, and another variant with the page', async () => {
    const first = await app.inject({ url: '/search', headers: { 'accept-language': 'zh-TW' } });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^".+"$/);
    const again = await app.inject({ url: '/search', headers: { 'accept-language': 'zh-TW', 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const other = await app.inject({ url: '/search', headers: { 'accept-language': 'en', 'if-none-match': etag } });
    expect(other.statusCode).toBe(200);
    expect(other.body).toContain('Find your valve');
  });

  it('falls back to the app (index.html) for a variant the build does not have', async () => {
    const res = await app.inject({ url: '/login', headers: { 'accept-language': 'zh-TW' } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="app"></div>');
    const en = await app.inject({ url: '/login' });
    expect(en.body).toContain('Sign in');
  });

  it('on a public host name serves /search prerendered and sends other pages there', async () => {
    const res = await app.inject({ url: '/search', headers: { host: 'report.example.com', 'accept-language': 'zh-HK' } });
    expect(res.body).toContain('<html lang="zh-Hant">');
    const login = await app.inject({ url: '/login', headers: { host: 'report.example.com' } });
    expect(login.statusCode).toBe(302);
  });
});
