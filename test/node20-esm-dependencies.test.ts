/**
 * cookie@2 and content-disposition@3 declare `engines: node >=22` because they are ESM-only and their
 * CommonJS users (@fastify/cookie, light-my-request, @fastify/static) load them with require(esm). Node
 * 20.19 has require(esm) unflagged too (backported), which is why package.json says >=20.19. This test
 * runs those exact paths on the Node the suite runs on (20.x here): see docs/decisions/0001.
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

describe('ESM-only dependencies that declare Node 22 work on Node >= 20.19 (require(esm))', () => {
  it('runs on the Node the product promises', () => {
    const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
    expect(major > 20 || (major === 20 && minor >= 19)).toBe(true);
  });

  it('require()s cookie@2 from @fastify/cookie and content-disposition@3 from @fastify/static', () => {
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
