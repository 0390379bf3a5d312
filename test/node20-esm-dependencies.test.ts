/**
 * cookie and content-disposition, as @fastify/cookie, light-my-request and @fastify/static load them.
 * Their newest majors (cookie 2, content-disposition 3) ask for Node 22, so package.json `overrides` pins
 * cookie 1.1 and content-disposition 2.0: the same functions (parseCookie/stringifySetCookie, create) in
 * CommonJS builds that ask for Node 18, so a fresh `npm install` on Node 20.19 warns of nothing. This test
 * checks that the versions installed agree with `engines` and runs the paths the product uses (sessions'
 * cookies, downloads' Content-Disposition) through them: see docs/decisions/0001.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import Fastify from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import { describe, expect, it } from 'vitest';

const requireFrom = (pkg: string) => createRequire(createRequire(import.meta.url).resolve(`${pkg}/package.json`));

/** The package.json of the package that `file` belongs to (content-disposition exports no ./package.json). */
function manifestOf(file: string, name: string): { version: string; engines?: { node?: string } } {
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) {
      const json = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string; version: string; engines?: { node?: string } };
      if (json.name === name) return json;
    }
  }
  throw new Error(`no package.json for ${name} above ${file}`);
}

describe('cookie and content-disposition, pinned to versions that support Node 20.19', () => {
  it('runs on the Node the product promises', () => {
    const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
    expect(major > 20 || (major === 20 && minor >= 19)).toBe(true);
  });

  it('resolves, from each dependant, a version whose engines allow Node 20.19', () => {
    const lowest = (range: string) => Number(/^>=\s*(\d+)/.exec(range)?.[1] ?? NaN);
    for (const [dependant, pkg] of [
      ['@fastify/cookie', 'cookie'],
      ['light-my-request', 'cookie'],
      ['@fastify/static', 'content-disposition'],
    ] as const) {
      const found = manifestOf(requireFrom(dependant).resolve(pkg), pkg);
      expect(lowest(found.engines?.node ?? '>=0'), `${pkg}@${found.version} from ${dependant}`).toBeLessThanOrEqual(20);
    }
  });

  it('require()s cookie from @fastify/cookie and content-disposition from @fastify/static', () => {
    const cookie = requireFrom('@fastify/cookie')('cookie') as { parseCookie: (s: string) => Record<string, string> };
    expect(cookie.parseCookie('a=1; b=two')).toEqual({ a: '1', b: 'two' });
    const cd = requireFrom('@fastify/static')('content-disposition') as { create: (f: string) => string };
    expect(cd.create('Prüfbericht 1.pdf')).toContain("filename*=UTF-8''Pr%C3%BCfbericht%201.pdf");
  });

  it('sets, reads and injects cookies and serves a download through those packages', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-esm-'));
    fs.writeFileSync(path.join(dir, 'r.txt'), 'report');
    const app = Fastify();
    await app.register(fastifyCookie);
    await app.register(fastifyStatic, { root: dir, serve: false });
    app.get('/set', (_req, reply) => reply.setCookie('sid', 'v 1', { path: '/', httpOnly: true }).send('ok'));
    app.get('/read', (req) => ({ sid: req.cookies.sid }));
    app.get('/dl', (_req, reply) => reply.download('r.txt', 'Bericht ü.txt'));
    try {
      const set = await app.inject({ url: '/set' });
      expect(set.cookies[0]).toMatchObject({ name: 'sid', value: 'v 1', httpOnly: true });
      const read = await app.inject({ url: '/read', cookies: { sid: 'v 1' } });
      expect(read.json()).toEqual({ sid: 'v 1' });
      const dl = await app.inject({ url: '/dl' });
      expect(dl.body).toBe('report');
      expect(dl.headers['content-disposition']).toMatch(/^attachment; filename=".*"; filename\*=UTF-8''Bericht%20%C3%BC\.txt$/);
    } finally {
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
