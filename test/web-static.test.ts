/** The built web app as the server serves it: files, history-mode pages, and a rebuild without restart. */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appWithWebBuild, type WebBuildApp } from './helpers/web-build';

let web: WebBuildApp;
let dir: string;
let app: FastifyInstance;

beforeAll(async () => {
  web = await appWithWebBuild({
    'assets/main-aaa111.js': 'console.log(1)',
    // What `vite build` writes beside the app: the manifest of every source and dependency path.
    '.vite/manifest.json': '{"src/web/main.tsx":{"file":"assets/main-aaa111.js"}}',
    'assets/.hidden': 'not for anyone',
  });
  ({ app, dir } = web);
});
afterAll(() => web.close());

describe('web app', () => {
  it('serves hashed assets as immutable', async () => {
    const res = await app.inject('/assets/main-aaa111.js');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('console.log(1)');
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it("answers every page of the app's router with index.html, always revalidated", async () => {
    for (const url of ['/', '/dashboard', '/edit-product/123?x=1', '/pages/misc/not-found/anything']) {
      const res = await app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('<div id="app">');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves files of a rebuild made while it runs', async () => {
    fs.writeFileSync(path.join(dir, 'assets', 'main-bbb222.js'), 'console.log(2)');
    const res = await app.inject('/assets/main-bbb222.js');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('console.log(2)');
  });

  it('keeps API misses in the JSON envelope, also for GET', async () => {
    const res = await app.inject('/api/v1/nothing-here');
    expect(res.statusCode).toBe(404);
    expect(res.json().error.status).toBe('NOT_FOUND');
  });

  it('on a public host name serves /search and sends other pages there', async () => {
    const search = await app.inject({ url: '/search?report=abc', headers: { host: 'report.example.com' } });
    expect(search.statusCode).toBe(200);
    expect(search.body).toContain('<div id="app">');
    const asset = await app.inject({ url: '/assets/main-aaa111.js', headers: { host: 'report.example.com' } });
    expect(asset.statusCode).toBe(200);
    const other = await app.inject({ url: '/products', headers: { host: 'report.example.com' } });
    expect(other.statusCode).toBe(302);
    expect(other.headers.location).toBe('/search');
  });

  it('answers 404 for the build manifest and every dot path, on staff and public host names', async () => {
    const paths = [
      '/.vite/manifest.json',
      '/.vite/',
      '/.vite',
      '/%2evite/manifest.json',
      '/%2Evite%2Fmanifest.json',
      '/assets/.hidden',
      '/assets/..%2f.vite/manifest.json',
      '/.vite/manifest.json?x=1',
      '/.env',
    ];
    for (const host of ['localhost', 'staff.example.com', 'report.example.com']) {
      for (const url of paths) {
        for (const method of ['GET', 'HEAD'] as const) {
          const res = await app.inject({ method, url, headers: { host } });
          expect(res.statusCode, `${method} ${host}${url}`).toBe(404);
          expect(res.body, `${method} ${host}${url}`).not.toContain('src/web/main.tsx');
          if (method === 'GET') expect(res.json().error.status).toBe('NOT_FOUND');
        }
      }
    }
    // The files beside them are served as before.
    expect((await app.inject('/assets/main-aaa111.js')).statusCode).toBe(200);
  });
});
