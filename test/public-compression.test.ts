/**
 * What goes over the wire: built assets pre-compressed at build time (brotli and gzip beside each file,
 * served by @fastify/static's preCompressed), API JSON compressed per request, PDFs and small answers not.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../scripts/vite-precompress';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { createTestDatabase, type TestDatabase } from './helpers/database';

let dir: string;
let db: TestDatabase;
let app: FastifyInstance;
// Text that compresses like a real bundle does (repetitive identifiers), well above the 1 KB floor.
const script = Array.from({ length: 400 }, (_, i) => `export function handler${i}(value) { return value * ${i}; }`).join('\n');

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-web-compress-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    `<!doctype html><title>Test Report Center</title><div id="app"></div>${'<!-- pad -->'.repeat(200)}`,
  );
  fs.writeFileSync(path.join(dir, 'assets', 'search-abc123.js'), script);
  fs.writeFileSync(path.join(dir, 'assets', 'tiny-abc123.js'), 'console.log(1)');
  fs.writeFileSync(path.join(dir, 'assets', 'logo-abc123.png'), Buffer.alloc(4096, 7));
  precompressDir(dir);
  db = await createTestDatabase();
  app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent' }), database: db.database, logger: false, webDist: dir });
  app.get('/api/v1/test/pdf', { config: { access: 'public' } }, async (_req, reply) =>
    reply.type('application/pdf').send(Buffer.alloc(8192, 0x25)),
  );
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await db.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('pre-compressed assets', () => {
  it('the build step writes .br and .gz beside text assets of 1 KB or more, and leaves images and tiny files alone', () => {
    const assets = fs.readdirSync(path.join(dir, 'assets')).sort();
    expect(assets).toEqual(['logo-abc123.png', 'search-abc123.js', 'search-abc123.js.br', 'search-abc123.js.gz', 'tiny-abc123.js']);
    expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(dir, 'assets', 'search-abc123.js.br'))).toString()).toBe(script);
    expect(zlib.gunzipSync(fs.readFileSync(path.join(dir, 'assets', 'search-abc123.js.gz'))).toString()).toBe(script);
  });

  it('sends brotli to a browser that accepts it, gzip to one that accepts only gzip, and the plain file otherwise', async () => {
    const br = await app.inject({ url: '/assets/search-abc123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toContain('immutable');
    expect(br.rawPayload.length).toBeLessThan(script.length / 4);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(script);

    const gz = await app.inject({ url: '/assets/search-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(script);

    const plain = await app.inject({ url: '/assets/search-abc123.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('sends the app page compressed too', async () => {
    const res = await app.inject({ url: '/search', headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toContain('<div id="app">');
  });
});

describe('API answers', () => {
  it('compresses JSON with gzip (and brotli) when the client accepts it', async () => {
    const plain = await app.inject({ url: '/api/openapi.json' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const gz = await app.inject({ url: '/api/openapi.json', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.statusCode).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['content-type']).toMatch(/application\/json/);
    expect(JSON.parse(zlib.gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
    expect(gz.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    const br = await app.inject({ url: '/api/openapi.json', headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
  });

  it('leaves small answers and PDFs as they are', async () => {
    const small = await app.inject({ url: '/healthz', headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    const pdf = await app.inject({ url: '/api/v1/test/pdf', headers: { 'accept-encoding': 'br, gzip' } });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-encoding']).toBeUndefined();
    expect(pdf.rawPayload.length).toBe(8192);
  });

  it('does not inflate a compressed request body', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: zlib.gzipSync(JSON.stringify({ email: 'a@example.com', password: 'x' })),
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });
});
