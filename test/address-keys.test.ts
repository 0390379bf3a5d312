/**
 * Every limit that counts per client address counts it the same way, through lib/client-key.ts: an IPv6
 * client by its /64, so that one subscriber's /64 cannot take a fresh allowance with each of its addresses.
 *  - addressKey itself;
 *  - the source of src/server: no counter key, rate-limit key or key generator is made from a raw address
 *    (a lint of the kinds of code that counted the full address before);
 *  - behaviour: two addresses of one /64 share the report requests' serial allowance and the bench API's
 *    wrong-key limit, directly and behind a trusted proxy.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SERIALS_PER_REQUEST } from '../src/shared/contract/public';
import { addressKey } from '../src/server/lib/client-key';
import { INGEST_FAILURE_LIMIT } from '../src/server/modules/machine-data/machine-data.routes';
import { PUBLIC_LIMITS } from '../src/server/modules/public/public-limits';
import { buildTestApp, type TestApp } from './helpers/app';
import { postRequest, requestBody, series } from './helpers/public';

describe('addressKey', () => {
  it('keeps IPv4, reads IPv4-mapped IPv6 as IPv4, and cuts other IPv6 to its /64', () => {
    expect(addressKey('192.0.2.7')).toBe('192.0.2.7');
    expect(addressKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(addressKey('::FFFF:C000:0207')).toBe('192.0.2.7');
    expect(addressKey('2001:db8:aa:bb::1')).toBe('2001:db8:aa:bb::/64');
    expect(addressKey('2001:DB8:AA:BB:ffff:ffff:ffff:ffff')).toBe('2001:db8:aa:bb::/64');
    expect(addressKey('2001:0db8:00aa:00bb:1:2:3:4')).toBe('2001:db8:aa:bb::/64');
    expect(addressKey('2001:db8:aa:bc::1')).not.toBe(addressKey('2001:db8:aa:bb::1'));
  });
});

// ---------------------------------------------------------------------------------------------------------
// The lint: the ways a limit has keyed on an address, refused anywhere in src/server but lib/client-key.ts.

const SERVER = path.resolve(__dirname, '../src/server');
const KEY_FILE = path.join(SERVER, 'lib/client-key.ts');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') ? [p] : [];
  });
}

/** The code without its comments (which may well mention req.ip), line numbers kept. */
function withoutComments(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '))
    .split('\n')
    .map((line) => line.replace(/(^|\s)\/\/.*$/, '$1'))
    .join('\n');
}

/** An expression naming a client address: req.ip, request.ip, meta.ip, req.ips, remoteAddress, ip, rawIp. */
const ADDRESS = /(?:^|[^\w$])(?:(?:[\w$]+\.)*(?:ip|ips|remoteAddress)|[\w$]*Ip)\b/;

interface Interpolation {
  line: number;
  /** the template's tag (`sql` for a Drizzle query, whose values are parameters, not text) */
  tag: string;
  expr: string;
}

/** Every `${...}` of every template literal in `code`, nested ones included, with its template's tag. */
function interpolations(code: string): Interpolation[] {
  const found: Interpolation[] = [];
  const lineAt = (i: number) => code.slice(0, i).split('\n').length;
  // Frames: a template (its tag) or the code of an interpolation (its start and brace depth).
  type Frame = { kind: 'template'; tag: string } | { kind: 'code'; start: number; depth: number; tag: string };
  const stack: Frame[] = [];
  let i = 0;
  const skipString = (quote: string) => {
    for (i++; i < code.length && code[i] !== quote; i++) if (code[i] === '\\') i++;
  };
  while (i < code.length) {
    const top = stack[stack.length - 1];
    const c = code[i]!;
    if (top?.kind === 'template') {
      if (c === '\\') i++;
      else if (c === '`') stack.pop();
      else if (c === '$' && code[i + 1] === '{') {
        stack.push({ kind: 'code', start: i + 2, depth: 0, tag: top.tag });
        i++;
      }
    } else if (c === "'" || c === '"') skipString(c);
    else if (c === '/' && /(?:^|[(,=:[!&|?{};]|return)\s*$/.test(code.slice(Math.max(0, i - 10), i))) {
      // A regular expression literal: its quotes and braces are not code.
      for (let inClass = false, j = i + 1; j < code.length; j++) {
        if (code[j] === '\\') j++;
        else if (code[j] === '[') inClass = true;
        else if (code[j] === ']') inClass = false;
        else if (code[j] === '/' && !inClass) {
          i = j;
          break;
        }
      }
    } else if (c === '`') stack.push({ kind: 'template', tag: /([\w$.]+)\s*$/.exec(code.slice(Math.max(0, i - 40), i))?.[1] ?? '' });
    else if (top?.kind === 'code' && c === '{') top.depth++;
    else if (top?.kind === 'code' && c === '}') {
      if (top.depth > 0) top.depth--;
      else {
        found.push({ line: lineAt(top.start), tag: top.tag, expr: code.slice(top.start, i).trim() });
        stack.pop();
      }
    }
    i++;
  }
  if (stack.length > 0) throw new Error(`unbalanced template at line ${lineAt(code.length)}`);
  return found;
}

/** Where `code` (one file, comments removed) makes a key from a raw address, each as "line: text". */
function rawAddressKeys(code: string): string[] {
  const lines = code.split('\n');
  const at = (n: number) => `${n}: ${lines[n - 1]!.trim()}`;
  const found: string[] = [];
  // A key written as a template: `bench-fail:${req.ip}`, `login:ip:${ip}`. A Drizzle query's values are
  // parameters of what it records (the audit log's address), not keys.
  for (const p of interpolations(code)) {
    if (p.tag !== 'sql' && ADDRESS.test(p.expr) && !p.expr.startsWith('addressKey(')) found.push(at(p.line));
  }
  lines.forEach((line, i) => {
    // A key glued together: 'bench-fail:' + req.ip.
    if (/\+\s*(?:[\w$]+\.)+(?:ip|remoteAddress)\b|(?:[\w$]+\.)+(?:ip|remoteAddress)\s*\+/.test(line)) found.push(at(i + 1));
    // A rate-limit key generator that reads the address without addressKey.
    if (/keyGenerator/.test(line) && ADDRESS.test(line.slice(line.indexOf('keyGenerator'))) && !/addressKey\(/.test(line)) {
      found.push(at(i + 1));
    }
    // A second way of reducing an address, or the rate-limit plugin's own.
    if (/\bnormalizeIP\b|\bipv6Subnet\b|from '(?:ip-address|ipaddr\.js)'/.test(line)) found.push(at(i + 1));
  });
  // The plugin's registration names the generator, so that no route limit falls back to the plugin's own key.
  for (const m of code.matchAll(/register\(\s*rateLimit\s*,\s*\{([\s\S]*?)\}\s*\)/g)) {
    if (!/keyGenerator:\s*\(req\)\s*=>\s*addressKey\(req\.ip\)/.test(m[1]!)) {
      found.push(`${code.slice(0, m.index).split('\n').length}: register(rateLimit) without keyGenerator: (req) => addressKey(req.ip)`);
    }
  }
  return found;
}

describe('limits key on addresses only through addressKey', () => {
  it('finds the keys that counted the full address before', () => {
    const before = [
      'const failures = await counters.hit(`bench-fail:${req.ip}`, INGEST_FAILURE_LIMIT.timeWindow);',
      'await limitKeys(counters, reply, [`request-serials-ip:${req.ip}`], limits.requestSerialsPerIp, n);',
      "const key = 'lookup:' + request.ip;",
      'keyGenerator: (req) => req.ip,',
      "import { normalizeIP } from '@fastify/rate-limit';",
      'await app.register(rateLimit, {\n  global: false,\n});',
    ];
    for (const code of before) expect(rawAddressKeys(code), code).not.toEqual([]);
    expect(rawAddressKeys('counters.hit(`bench-fail:${addressKey(req.ip)}`, w);')).toEqual([]);
    expect(rawAddressKeys('counters.hit(`x:${`${req.ip}`}`, w);')).not.toEqual([]);
    expect(rawAddressKeys('return { ip: req.ip, userAgent: req.headers["user-agent"] };')).toEqual([]);
    expect(rawAddressKeys('await db.execute(sql`INSERT INTO audit_log (ip) VALUES (${actor.ip ?? null})`);')).toEqual([]);
  });

  it('in every file of src/server', () => {
    const files = sourceFiles(SERVER).filter((f) => f !== KEY_FILE);
    expect(files.length).toBeGreaterThan(50);
    const code = files.map((f) => ({ f, code: withoutComments(fs.readFileSync(f, 'utf8')) }));
    const offences = code.flatMap(({ f, code }) => rawAddressKeys(code).map((o) => `${path.relative(SERVER, f)}:${o}`));
    expect(offences).toEqual([]);
    // The reader sees the keys it is meant to check: the bench API's, for one.
    const keys = code.flatMap(({ code }) => interpolations(code).map((p) => p.expr));
    expect(keys).toContain('addressKey(req.ip)');
    // The registration is there to be checked.
    expect(fs.readFileSync(path.join(SERVER, 'app.ts'), 'utf8')).toMatch(/register\(rateLimit,/);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Behaviour: one /64, one allowance.

let t: TestApp;
beforeAll(async () => {
  // Behind a proxy on loopback, as deploy/ runs it: the client's address comes from X-Forwarded-For.
  t = await buildTestApp({ TRUST_PROXY: '127.0.0.1' });
});
afterAll(() => t.close());

/** An address of a fresh /64 (2001:db8:<random>:<random>::/64); `host` picks the address inside it. */
function subnet(): (host: number) => string {
  const [a, b] = [randomBytes(2).toString('hex'), randomBytes(2).toString('hex')];
  return (host) => `2001:db8:${a}:${b}:${host.toString(16)}:${((host * 7919) & 0xffff).toString(16)}:0:1`;
}

describe('report requests: the serial allowance', { timeout: 120_000 }, () => {
  it(`two addresses of one /64 share the ${PUBLIC_LIMITS.requestSerialsPerIp.max} serials; the next one is refused, another /64 is not`, async () => {
    const net = subnet();
    const full = PUBLIC_LIMITS.requestSerialsPerIp.max / MAX_SERIALS_PER_REQUEST;
    for (let i = 0; i < full; i++) {
      const serials = Array.from({ length: MAX_SERIALS_PER_REQUEST }, () => `${series()}000001`);
      const res = await postRequest(t.app, requestBody({ serials }), { ip: net(i % 2 === 0 ? 1 : 2) });
      expect(res.statusCode, res.body).toBe(200);
    }
    const over = await postRequest(t.app, requestBody({ serial: `${series()}000001` }), { ip: net(3) });
    expect(over.statusCode).toBe(429);
    expect(over.json().error.key).toBe('errors.tooManyRequests');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    // The same /64 written through a trusted proxy is the same client.
    const proxied = await postRequest(t.app, requestBody({ serial: `${series()}000001` }), {
      ip: '127.0.0.1',
      headers: { 'x-forwarded-for': net(4) },
    });
    expect(proxied.statusCode).toBe(429);
    expect((await postRequest(t.app, requestBody({ serial: `${series()}000001` }), { ip: subnet()(1) })).statusCode).toBe(200);
  });
});

describe('bench API: wrong keys', () => {
  function post(headers: Record<string, string>) {
    return t.app.inject({
      method: 'POST',
      url: '/api/v1/machine-data',
      headers: {
        authorization: `Bearer trc_live_${randomBytes(32).toString('base64url')}`,
        'content-type': 'application/json',
        ...headers,
      },
      payload: JSON.stringify({ records: [] }),
      remoteAddress: '127.0.0.1',
    });
  }

  it(`from every address of one /64: 401 up to ${INGEST_FAILURE_LIMIT.max}, then 429; another /64 still 401`, async () => {
    const net = subnet();
    const statuses: number[] = [];
    for (let i = 0; i < INGEST_FAILURE_LIMIT.max; i++) statuses.push((await post({ 'x-forwarded-for': net(i + 1) })).statusCode);
    expect(statuses).toEqual(Array(INGEST_FAILURE_LIMIT.max).fill(401));
    const over = await post({ 'x-forwarded-for': net(INGEST_FAILURE_LIMIT.max + 1) });
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    // An IPv4 client reached over IPv6 (a dual-stack proxy's ::ffff: form) is that IPv4 client.
    for (let i = 0; i < INGEST_FAILURE_LIMIT.max; i++) await post({ 'x-forwarded-for': '192.0.2.55' });
    expect((await post({ 'x-forwarded-for': '::ffff:192.0.2.55' })).statusCode).toBe(429);
    expect((await post({ 'x-forwarded-for': subnet()(1) })).statusCode).toBe(401);
  });
});
