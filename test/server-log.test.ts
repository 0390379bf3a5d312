// @engine-independent: the lines the server's log writes, whichever database it uses (scripts/test.mjs leaves it out of the PostgreSQL pass).
/**
 * The server's log: at the default level (info) a request writes no line of its own, while a failed
 * request and a warning still do; at debug each request has its two lines. Readable lines on a terminal,
 * JSON elsewhere, or as LOG_FORMAT says. The real app, its log captured from the stream it writes to.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { logStream, resolveLogFormat, startLog } from '../src/server/lib/log';
import { createTestDatabase, type TestDatabase } from './helpers/database';

/** A stream that keeps what is written to it. */
function capture(isTTY = false) {
  const lines: string[] = [];
  return {
    lines,
    isTTY,
    write: (s: string) => (lines.push(...s.split('\n').filter(Boolean)), true),
  } as unknown as NodeJS.WritableStream & {
    lines: string[];
  };
}

let open: { app: FastifyInstance; db: TestDatabase; dataDir: string } | undefined;
afterEach(async () => {
  await open?.app.close();
  await open?.db.drop();
  if (open) fs.rmSync(open.dataDir, { recursive: true, force: true });
  open = undefined;
});

async function appLoggingTo(env: Record<string, string>, out: NodeJS.WritableStream) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-log-'));
  const config = loadConfig({ DATA_DIR: dataDir, PUBLIC_BASE_URL: 'http://localhost:3000', ...env });
  const db = await createTestDatabase();
  const app = await buildApp({ config, database: db.database, logStream: logStream(resolveLogFormat(config.logFormat, false), out) });
  app.get('/api/v1/test/fine', { config: { access: 'public' } }, async () => ({ data: 'ok' }));
  app.get('/api/v1/test/broken', { config: { access: 'public' } }, async () => {
    throw new Error('the bench file was cut short');
  });
  app.get('/api/v1/test/doubtful', { config: { access: 'public' } }, async (req) => {
    req.log.warn('a value was rounded');
    return { data: 'ok' };
  });
  await app.ready();
  open = { app, db, dataDir };
  return app;
}

const parsed = (lines: string[]) => lines.map((l) => JSON.parse(l) as { level: number; msg: string; reqId?: string });

describe('the request log', () => {
  it('at the default level writes no line for a request, but the error of a 500 and a warning', async () => {
    const out = capture();
    const app = await appLoggingTo({}, out);
    out.lines.length = 0;
    expect((await app.inject('/api/v1/test/fine')).statusCode).toBe(200);
    expect((await app.inject('/api/v1/test/no-such-route')).statusCode).toBe(404);
    expect(out.lines).toEqual([]);

    expect((await app.inject('/api/v1/test/broken')).statusCode).toBe(500);
    const failed = parsed(out.lines);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ level: 50, msg: 'request failed' });
    expect(failed[0]!.reqId).toMatch(/^[0-9a-f-]{36}$/);

    out.lines.length = 0;
    expect((await app.inject('/api/v1/test/doubtful')).statusCode).toBe(200);
    expect(parsed(out.lines)).toEqual([expect.objectContaining({ level: 40, msg: 'a value was rounded' })]);
  });

  it('at debug writes each request and its answer', async () => {
    const out = capture();
    const app = await appLoggingTo({ LOG_LEVEL: 'debug' }, out);
    out.lines.length = 0;
    await app.inject('/api/v1/test/fine?email=someone@example.com');
    const lines = parsed(out.lines).filter((l) => l.level === 20);
    expect(lines.map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
    expect(out.lines.join('\n')).not.toContain('someone@example.com');
  });

  it('writes readable lines with LOG_FORMAT=pretty', async () => {
    const out = capture();
    const app = await appLoggingTo({ LOG_FORMAT: 'pretty' }, out);
    out.lines.length = 0;
    await app.inject('/api/v1/test/doubtful');
    expect(out.lines).toHaveLength(1);
    expect(out.lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\] WARN: a value was rounded/);
    expect(out.lines[0]).not.toContain('{"level"');
  });
});

describe('the log format', () => {
  it('is readable on a terminal and JSON elsewhere, unless LOG_FORMAT says', () => {
    expect(resolveLogFormat(undefined, true)).toBe('pretty');
    expect(resolveLogFormat(undefined, false)).toBe('json');
    expect(resolveLogFormat('json', true)).toBe('json');
    expect(resolveLogFormat('pretty', false)).toBe('pretty');
  });

  it("writes the start's lines in the same format, at the configured level", () => {
    const json = capture();
    const say = startLog('info', logStream('json', json));
    say('info', 'Preparing the database…');
    expect(JSON.parse(json.lines[0]!)).toMatchObject({ level: 30, msg: 'Preparing the database…' });

    const pretty = capture();
    startLog('info', logStream('pretty', pretty))('info', 'Database ready in 2.4 s');
    expect(pretty.lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: Database ready in 2\.4 s$/);

    const quiet = capture();
    const sayWarn = startLog('warn', logStream('json', quiet));
    sayWarn('info', 'not shown');
    sayWarn('warn', 'shown');
    expect(quiet.lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(['shown']);
  });
});
