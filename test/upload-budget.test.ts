/**
 * CSV uploads have a budget (docs/decisions/0040-upload-budget.md): a file or a request over its limit is
 * cut with 413 while it streams, a user's uploads in flight and the instance's are held to their budgets
 * (429), and the spool lives under DATA_DIR/spool (0700, files 0600), emptied after every request and when
 * the app starts. Over real HTTP, with small limits set through the configuration.
 */
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { buildTestApp, type TestApp } from './helpers/app';
import { ORIGIN, staffCookie, upload } from './helpers/catalogue';
import { createTestDatabase, type TestDatabase } from './helpers/database';

const LIMITS = { UPLOAD_FILE_LIMIT: '64K', UPLOAD_REQUEST_LIMIT: '96K', UPLOAD_USER_BUDGET: '100K', UPLOAD_INSTANCE_BUDGET: '110K' };
const KB = 1024;
const PRODUCT_HEADER =
  'name,fluid,connection,application,applicationMedium,pressureFc,pressureWcb,pressureSus,temperatureMax,temperatureMin\n';
const IMPORT = '/api/v1/products/import?dryRun=true';

let t: TestApp;
let base: string;
let spoolDir: string;
let cookie: string;

beforeAll(async () => {
  t = await buildTestApp(LIMITS);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as net.AddressInfo).port}`;
  spoolDir = path.join(t.config.dataDir, 'spool');
  cookie = await staffCookie(t);
});
afterAll(() => t.close());

/** Product rows, exactly `bytes` long (the last product's name fills it up), each a valid product of its own name. */
function productsCsv(bytes: number): Buffer {
  const row = (name: string) => `${name},water,Flange,Waterworks,Water,1.6,2.5,,120,-10\n`;
  let text = PRODUCT_HEADER;
  for (let i = 0; text.length < bytes - 150; i++) text += row(`Gate Valve ${String(i).padStart(6, '0')}`);
  const last = row('Gate Valve Z');
  return Buffer.from(text + row(`Gate Valve Z${'z'.repeat(bytes - text.length - last.length)}`));
}

const BOUNDARY = '----trcbudget';
const partHead = (field: string) =>
  Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${field}.csv"\r\nContent-Type: text/csv\r\n\r\n`,
  );
const END = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
const BETWEEN = Buffer.from('\r\n');

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A multipart upload over a real connection, written as the test says: `length` is the declared
 * Content-Length (none: a chunked body). `answer` settles when the server answers, however far the
 * upload has got; `closed` when the connection is gone.
 */
function openUpload(url: string, opts: { cookie: string; length?: number; language?: string }) {
  const target = new URL(url, base);
  const headers: http.OutgoingHttpHeaders = {
    'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
    cookie: opts.cookie,
    origin: target.origin,
    'accept-language': opts.language ?? 'en',
    ...(opts.length !== undefined ? { 'content-length': opts.length } : {}),
  };
  const req = http.request({ host: target.hostname, port: target.port, path: target.pathname + target.search, method: 'POST', headers });
  req.flushHeaders();
  const closed = new Promise<void>((resolve) => req.on('close', resolve));
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  // A refusal may end the connection under a write still in flight: the answer is what counts.
  const write = (chunk: Buffer) => new Promise<void>((resolve) => req.write(chunk, () => resolve()));
  return { req, answer, closed, write, end: (chunk?: Buffer) => new Promise<void>((resolve) => req.end(chunk, () => resolve())) };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}
const spooled = () => fs.readdirSync(spoolDir);
const errorOf = (a: Answer) => JSON.parse(a.body).error as { key: string; message: string; status: string };

describe('an upload over its limit', () => {
  it('is cut with 413 at the file limit while it streams, in the user’s language, and leaves no file', async () => {
    const zh = await staffCookie(t, { language: 'zh' });
    // Chunked: no declared length, so only the meter can stop it. The request is never ended: the answer
    // comes while the body is still arriving, not after all of it was spooled.
    const up = openUpload(IMPORT, { cookie: zh, language: 'zh-TW' });
    await up.write(partHead('file'));
    for (let sent = 0; sent < 80 * KB; sent += 16 * KB) await up.write(productsCsv(16 * KB));
    const answer = await up.answer;
    expect(answer.status).toBe(413);
    expect(errorOf(answer)).toMatchObject({ status: 'OUT_OF_RANGE', key: 'limits.uploadFileTooLarge' });
    expect(errorOf(answer).message).toBe('此檔案超過單一檔案上限 64 KB；請分割成較小的檔案，逐一匯入');
    // The rest of the body is not read: the connection is closed after the answer.
    expect(answer.headers.connection).toBe('close');
    await up.closed;
    expect(spooled()).toEqual([]);
    expect(t.app.ctx.uploads.reserved).toBe(0);
  });

  it('is refused with 413 before a byte is read when it declares more than a request may carry', async () => {
    const up = openUpload(IMPORT, { cookie, length: 400 * KB });
    const answer = await up.answer;
    expect(answer.status).toBe(413);
    expect(errorOf(answer)).toMatchObject({ key: 'limits.uploadTooLarge', message: expect.stringContaining('96 KB') });
    up.req.destroy();
    expect(spooled()).toEqual([]);
  });

  it('is cut with 413 when its files together pass the request limit, each under the file limit', async () => {
    const up = openUpload('/api/v1/machine-data/import?dryRun=true', { cookie });
    await up.write(partHead('samples'));
    await up.write(Buffer.alloc(60 * KB, 'x'));
    await up.write(BETWEEN);
    await up.write(partHead('file'));
    for (let sent = 0; sent < 60 * KB; sent += 12 * KB) await up.write(Buffer.alloc(12 * KB, 'y'));
    const answer = await up.answer;
    expect(answer.status).toBe(413);
    expect(errorOf(answer).key).toBe('limits.uploadTooLarge');
    await up.closed;
    expect(spooled()).toEqual([]);
  });

  it('takes a file at the limit', async () => {
    const res = await upload(t.app, cookie, IMPORT, productsCsv(64 * KB));
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(spooled()).toEqual([]);
  });
});

describe('uploads in flight', () => {
  let other: TestApp;
  let otherCookie: string;
  let stale: string;
  beforeAll(async () => {
    // A second app in the same process, started on a DATA_DIR whose spool holds a crashed process's file.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-test-'));
    stale = path.join(dataDir, 'spool', 'left-by-a-crash.upload');
    fs.mkdirSync(path.dirname(stale), { recursive: true, mode: 0o755 });
    fs.writeFileSync(stale, 'half an upload');
    const config = loadConfig({ DATA_DIR: dataDir, PUBLIC_BASE_URL: ORIGIN, LOG_LEVEL: 'silent', ...LIMITS });
    const testDb: TestDatabase = await createTestDatabase();
    const app = await buildApp({ config, database: testDb.database, logger: false });
    await app.ready();
    other = {
      app,
      config,
      testDb,
      close: async () => {
        await app.close();
        await testDb.drop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
    otherCookie = await staffCookie(other);
  });
  afterAll(() => other.close());

  it('empties the spool at start and keeps it private', () => {
    const dir = path.dirname(stale);
    expect(fs.existsSync(stale)).toBe(false);
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('holds each user and the instance to their budgets, spools under DATA_DIR (0600), and frees both after', async () => {
    const held = productsCsv(60 * KB);
    const first = openUpload(IMPORT, { cookie, length: partHead('file').length + held.length + END.length });
    await first.write(partHead('file'));
    await first.write(held.subarray(0, 10 * KB));
    await until(() => spooled().length === 1);
    const [file] = spooled();
    expect(fs.statSync(path.join(spoolDir, file!)).mode & 0o777).toBe(0o600);
    expect(fs.statSync(spoolDir).mode & 0o777).toBe(0o700);
    expect(fs.realpathSync(spoolDir).startsWith(fs.realpathSync(t.config.dataDir))).toBe(true);

    // The same user: 60 KB in flight and 45 KB more is past the 100 KB budget.
    const again = await upload(t.app, cookie, IMPORT, productsCsv(45 * KB));
    expect(again.statusCode).toBe(429);
    expect(again.json().error).toMatchObject({ status: 'RESOURCE_EXHAUSTED', key: 'limits.uploadsBusyUser' });
    expect(again.json().error.message).toContain('100 KB');
    // Another user fits in the instance's 110 KB …
    const colleague = await staffCookie(t);
    expect((await upload(t.app, colleague, IMPORT, productsCsv(12 * KB))).statusCode).toBe(200);
    // … but not with 60 KB beside the first user's 60.
    const third = await upload(t.app, await staffCookie(t), IMPORT, productsCsv(60 * KB));
    expect(third.statusCode).toBe(429);
    expect(third.json().error.key).toBe('limits.uploadsBusy');
    const zh = await upload(t.app, await staffCookie(t, { language: 'zh' }), IMPORT, productsCsv(60 * KB));
    expect(zh.json().error.message).toBe('伺服器目前正在接收過多上傳；請於一分鐘後再試');
    // The other app in this process has budgets of its own.
    expect((await upload(other.app, otherCookie, IMPORT, productsCsv(60 * KB))).statusCode).toBe(200);

    await first.write(held.subarray(10 * KB));
    await first.end(END);
    const answer = await first.answer;
    expect(answer.status, answer.body.slice(0, 300)).toBe(200);
    expect(JSON.parse(answer.body).data.errors).toEqual([]);
    expect(spooled()).toEqual([]);
    expect(t.app.ctx.uploads.reserved).toBe(0);
    expect((await upload(t.app, cookie, IMPORT, productsCsv(60 * KB))).statusCode).toBe(200);
  });

  it('frees the budget and the file when the client goes away mid-upload', async () => {
    const up = openUpload(IMPORT, { cookie, length: 90 * KB });
    up.answer.catch(() => undefined);
    await up.write(partHead('file'));
    await up.write(productsCsv(8 * KB));
    await until(() => spooled().length === 1);
    expect(t.app.ctx.uploads.reserved).toBe(90 * KB);
    up.req.destroy();
    await until(() => spooled().length === 0 && t.app.ctx.uploads.reserved === 0);
    expect((await upload(t.app, cookie, IMPORT, productsCsv(60 * KB))).statusCode).toBe(200);
  });
});
