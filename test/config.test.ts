// @engine-independent: configuration parsing (scripts/test.mjs leaves it out of the PostgreSQL pass).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/server/config';

describe('configuration', () => {
  it('has defaults that need nothing set', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 3000, host: '0.0.0.0', trustProxy: false, logLevel: 'info', publicBaseUrl: 'http://localhost:3000' });
    expect(c.dataDir).toBe(path.resolve('./data'));
    expect(c.databaseUrl).toBeUndefined();
  });

  it('parses every variable', () => {
    const c = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATA_DIR: '/tmp/x',
      DATABASE_URL: 'postgres://u:p@db:5432/trc',
      REDIS_URL: 'redis://r:6379',
      SMTP_URL: 'smtp://u:p@mail:587',
      MAIL_FROM: 'Reports <r@example.com>',
      PUBLIC_BASE_URL: 'https://reports.example.com/',
      TRUST_PROXY: '10.0.0.5',
      LOG_LEVEL: 'warn',
    });
    expect(c).toMatchObject({
      port: 8080,
      dataDir: '/tmp/x',
      publicBaseUrl: 'https://reports.example.com',
      trustProxy: ['10.0.0.5'],
      logLevel: 'warn',
    });
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1']);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['REDIS_URL', 'localhost:6379'],
    ['SMTP_URL', 'http://mail'],
    ['PUBLIC_BASE_URL', 'reports.example.com'],
    ['TRUST_PROXY', 'maybe please'],
    ['LOG_LEVEL', 'loud'],
    ['LOG_FORMAT', 'yaml'],
  ])('refuses %s=%s with a message naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid ${name}=`));
  });
});

describe('the log format and production mode', () => {
  it('takes LOG_FORMAT=pretty|json, unset by default (decided by whether stdout is a terminal)', () => {
    expect(loadConfig({}).logFormat).toBeUndefined();
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(loadConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(() => loadConfig({ LOG_FORMAT: 'JSON lines' })).toThrow(/^Invalid LOG_FORMAT="JSON lines": must be one of pretty, json/);
  });

  it('is in production mode only with NODE_ENV=production', () => {
    expect(loadConfig({}).production).toBe(false);
    expect(loadConfig({ NODE_ENV: 'development' }).production).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production' }).production).toBe(true);
  });
});

describe('upload limits and the labels deadline', () => {
  const MiB = 1024 * 1024;
  it('default from one another: two files a request, one request a user, three users an instance', () => {
    expect(loadConfig({}).uploads).toEqual({
      fileBytes: 200 * MiB,
      requestBytes: 400 * MiB,
      userBytes: 400 * MiB,
      instanceBytes: 1200 * MiB,
    });
    expect(loadConfig({ UPLOAD_FILE_LIMIT: '50M' }).uploads).toEqual({
      fileBytes: 50 * MiB,
      requestBytes: 100 * MiB,
      userBytes: 100 * MiB,
      instanceBytes: 300 * MiB,
    });
  });

  it('read sizes in bytes or with K, M, G (binary)', () => {
    const c = loadConfig({
      UPLOAD_FILE_LIMIT: '65536',
      UPLOAD_REQUEST_LIMIT: '96K',
      UPLOAD_USER_BUDGET: '1MiB',
      UPLOAD_INSTANCE_BUDGET: '2 GB',
    });
    expect(c.uploads).toEqual({ fileBytes: 65_536, requestBytes: 96 * 1024, userBytes: MiB, instanceBytes: 2 * 1024 * MiB });
    expect(loadConfig({ LABELS_DEADLINE_BASE_MS: '5000', LABELS_DEADLINE_PER_LABEL_MS: '0' }).labels).toEqual({
      deadlineBaseMs: 5000,
      deadlinePerLabelMs: 0,
    });
  });

  it.each([
    ['UPLOAD_FILE_LIMIT', 'lots'],
    ['UPLOAD_FILE_LIMIT', '12T'],
    ['UPLOAD_REQUEST_LIMIT', '100'],
    ['UPLOAD_USER_BUDGET', '-1M'],
    ['LABELS_DEADLINE_BASE_MS', '10'],
    ['LABELS_DEADLINE_PER_LABEL_MS', '1.5'],
  ])('refuse %s=%s naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid ${name}="${value}": must be`));
  });

  it('refuse a budget smaller than the limit it must hold', () => {
    expect(() => loadConfig({ UPLOAD_FILE_LIMIT: '300M', UPLOAD_REQUEST_LIMIT: '200M' })).toThrow(
      /^Invalid UPLOAD_REQUEST_LIMIT="200M": must be at least UPLOAD_FILE_LIMIT \(314572800 bytes\)/,
    );
    expect(() => loadConfig({ UPLOAD_USER_BUDGET: '100M' })).toThrow(
      /^Invalid UPLOAD_USER_BUDGET="100M": must be at least UPLOAD_REQUEST_LIMIT/,
    );
    expect(() => loadConfig({ UPLOAD_INSTANCE_BUDGET: '399M' })).toThrow(/^Invalid UPLOAD_INSTANCE_BUDGET="399M"/);
  });
});

describe('TRUST_PROXY', () => {
  it('refuses true, which would let any client forge its address, protocol and host, and asks for hops or addresses', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/^Invalid TRUST_PROXY="true": .*forge.*proxy's addresses/);
  });

  it('refuses a hop count, which cannot tell a request through the proxy from a forged one', () => {
    expect(() => loadConfig({ TRUST_PROXY: '1' })).toThrow(/^Invalid TRUST_PROXY="1": a hop count .*proxy's addresses/);
  });
});

describe('TRUST_PROXY ranges', () => {
  it.each(['0.0.0.0/0', '::/0', '0/0', '0.0.0.0/1', '::ffff:0.0.0.0/96', '10.0.0.5, ::/0', '1.2.3.4/40', '999.1.1.1', '10.0.0.0/8/8'])(
    'refuses %s with a configuration error naming the variable, never a raw TypeError at start',
    (value) => {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(ConfigError);
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(new RegExp(`^Invalid TRUST_PROXY=.*proxy's addresses`));
    },
  );

  it('says that a range of everyone trusts everyone', () => {
    expect(() => loadConfig({ TRUST_PROXY: '0.0.0.0/0' })).toThrow(/trusts everyone/);
    expect(() => loadConfig({ TRUST_PROXY: '::/0' })).toThrow(/trusts everyone/);
  });

  it('keeps the proxies a real deployment names, and the app starts with them', async () => {
    const value = '127.0.0.1, 10.0.0.0/8, fd00::/8, ::ffff:10.0.0.0/104, loopback';
    const config = loadConfig({ TRUST_PROXY: value, LOG_LEVEL: 'silent' });
    expect(config.trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8', 'fd00::/8', '::ffff:10.0.0.0/104', 'loopback']);
    const { buildApp } = await import('../src/server/app');
    const { createTestDatabase } = await import('./helpers/database');
    const testDb = await createTestDatabase();
    const app = await buildApp({ config, database: testDb.database, logger: false });
    await app.ready();
    expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
    await app.close();
    await testDb.drop();
  });
});

describe('start-up failures', () => {
  const main = path.resolve('src/server/main.ts');
  const tsx = path.resolve('node_modules/tsx/dist/cli.mjs');
  const start = (env: Record<string, string>) =>
    spawnSync(process.execPath, [tsx, main], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 60_000 });

  it('stops with one line naming a bad variable and a non-zero exit', () => {
    const r = start({ PORT: 'eighty' });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/Invalid PORT="eighty"/);
    expect(r.stderr).not.toMatch(/\s+at /);
  });

  it('stops with one line when the database cannot be reached', () => {
    const r = start({ DATABASE_URL: 'postgres://nobody:secret@127.0.0.1:1/none' });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/Cannot reach the database at DATABASE_URL/);
    expect(r.stderr).not.toContain('secret');
  });
});
