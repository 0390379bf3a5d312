/**
 * robots.txt as the server sends it from the build (public/robots.txt, which Vite copies beside index.html):
 * a plain-text robots file on the staff and the public host name, never the app's page, whose rules let
 * crawlers read the pages and the files they are drawn with, and keep them out of the API and of the links
 * that name one customer's valve, report or delivery.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appWithWebBuild, type WebBuildApp } from './helpers/web-build';

const ROBOTS = fs.readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../public/robots.txt'), 'utf8');

interface Rule {
  allow: boolean;
  pattern: string;
}

/** The rules of the `User-agent: *` group. */
function rulesOf(text: string): Rule[] {
  const rules: Rule[] = [];
  let inGroup = false;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    const [key = '', ...rest] = line.split(':');
    const value = rest.join(':').trim();
    if (/^user-agent$/i.test(key)) inGroup = value === '*';
    else if (inGroup && /^(allow|disallow)$/i.test(key)) rules.push({ allow: /^allow$/i.test(key), pattern: value });
  }
  return rules;
}

/** RFC 9309 §2.2.2–2.2.3: the longest matching pattern decides, allow on a tie; `*` is any text, a final `$` the end. */
function allowed(rules: Rule[], url: string): boolean {
  let best: Rule | null = null;
  for (const rule of rules) {
    if (rule.pattern === '') continue;
    const anchored = rule.pattern.endsWith('$');
    const body = (anchored ? rule.pattern.slice(0, -1) : rule.pattern)
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
    if (!new RegExp(`^${body}${anchored ? '$' : ''}`).test(url)) continue;
    if (!best || rule.pattern.length > best.pattern.length || (rule.pattern.length === best.pattern.length && rule.allow)) best = rule;
  }
  return best ? best.allow : true;
}

let web: WebBuildApp;
let app: FastifyInstance;

beforeAll(async () => {
  web = await appWithWebBuild({ 'robots.txt': ROBOTS });
  app = web.app;
});
afterAll(() => web.close());

describe('robots.txt', () => {
  it('is plain text, not the app page, on the staff and the public host name', async () => {
    for (const host of ['localhost', 'report.example.com']) {
      const res = await app.inject({ url: '/robots.txt', headers: { host } });
      expect(res.statusCode, host).toBe(200);
      expect(res.headers['content-type'], host).toMatch(/^text\/plain/);
      expect(res.body, host).toBe(ROBOTS);
      expect(res.body, host).not.toContain('<div id="app">');
    }
  });

  it('lets crawlers read the public page, the verifier, the staff screens (a sign-in without a session) and what they are drawn with', () => {
    const rules = rulesOf(ROBOTS);
    for (const url of [
      '/search',
      '/verify',
      '/',
      '/login',
      '/dashboard',
      '/products',
      '/serial-numbers',
      '/machine-data',
      '/machine-data/quality',
      '/settings',
      '/assets/main-aaa111.js',
      '/assets/roboto-latin-400-normal-bbb222.woff2',
      '/verify.webmanifest',
      '/verify-icon.svg',
      '/verify-sw.js',
      '/api/v1/public/settings',
    ]) {
      expect(allowed(rules, url), url).toBe(true);
    }
  });

  it('keeps the API and the links to one unit, report or delivery out', () => {
    const rules = rulesOf(ROBOTS);
    for (const url of [
      '/api/v1/auth/me',
      '/api/v1/products',
      '/api/v1/public/lookup',
      '/api/v1/public/reports/abc',
      '/api/v1/public/reports/abc.pdf',
      '/api/v1/public/settings/x',
      '/api/openapi.json',
      '/search?report=abc',
      '/search?serial=BF300-000001',
      '/search?delivery=abc',
      '/id/BF300-000001',
      '/01/04012345678901/21/BF300-000001',
      '/verify?x=1',
    ]) {
      expect(allowed(rules, url), url).toBe(false);
    }
  });
});
