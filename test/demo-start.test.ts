/**
 * `npm run demo`'s server (src/server/main.ts --demo) on a fresh DATA_DIR, at the small size: it fills the
 * database, prints two accounts that can sign in and a serial the public lookup finds; started again it
 * keeps the data and the passwords, and says where they are and how to set new ones.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './helpers/free-port';

/** Runs on PGlite only (as `npm run demo` does), so it names no database helper: the PostgreSQL pass leaves it out. */
async function request(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string }) {
  const res = await fetch(url, { method: opts.method ?? 'GET', headers: opts.headers, body: opts.body });
  return { status: res.status, body: await res.text() };
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-demo-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** Starts the demo server, waits for its closing line (a new password command), stops it; answers stdout. */
async function runDemo(port: number, check: (url: string, out: string) => Promise<void>): Promise<string> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DEMO_SIZE: 'small',
    LOG_LEVEL: 'warn',
  };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'SMTP_URL', 'PUBLIC_BASE_URL']) delete env[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts', '--demo'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const deadline = Date.now() + 150_000;
    while (!/reset-password --email \S+\n/.test(out)) {
      if (child.exitCode !== null) throw new Error(`demo server exited: ${err}`);
      if (Date.now() > deadline) throw new Error(`demo server did not print its accounts: ${out}\n${err}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    await check(`http://127.0.0.1:${port}`, out);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
  return out;
}

async function signIn(url: string, email: string, password: string): Promise<{ status: number; body: string }> {
  const headers = { 'content-type': 'application/json', origin: url };
  return request(`${url}/api/v1/auth/login`, { method: 'POST', headers, body: JSON.stringify({ email, password }) });
}

describe('npm run demo', () => {
  it('fills an empty DATA_DIR, prints accounts that sign in and a serial the public lookup finds, and keeps it all on the next start', async () => {
    const port = await freePort();
    let accounts: Array<{ role: string; email: string; password: string }> = [];
    let serial = '';
    await runDemo(port, async (url, out) => {
      accounts = [...out.matchAll(/^\s+(admin|staff)\s+(\S+)\s+password: (\S+)$/gm)].map((m) => ({
        role: m[1]!,
        email: m[2]!,
        password: m[3]!,
      }));
      expect(accounts.map((a) => a.role)).toEqual(['admin', 'staff']);
      for (const a of accounts) {
        const res = await signIn(url, a.email, a.password);
        expect(res.status, res.body).toBe(200);
        expect(JSON.parse(res.body).data.user.role).toBe(a.role);
      }
      serial = /Try serial (\S+) on \/search/.exec(out)?.[1] ?? '';
      const lookup = await request(`${url}/api/v1/public/lookup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: url },
        body: JSON.stringify({ serial }),
      });
      expect(lookup.status, lookup.body).toBe(200);
      const found = JSON.parse(lookup.body).data;
      expect(found.serial).toBe(serial);
      expect(found.product.name).toMatch(/^DN\d+ /);
      // a serial that was never assigned is not found
      const missing = await request(`${url}/api/v1/public/lookup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: url },
        body: JSON.stringify({ serial: `${serial}9` }),
      });
      expect(missing.status).toBe(404);
    });

    const again = await runDemo(port, async (url) => {
      const res = await signIn(url, accounts[0]!.email, accounts[0]!.password);
      expect(res.status, res.body).toBe(200);
    });
    expect(again).toContain('Demo data kept');
    expect(again).toContain(`Try serial ${serial} on /search`);
    expect(again).not.toContain(accounts[0]!.password);
    expect(again).toMatch(/npm run admin -- reset-password --email admin@demo\.example\.com/);
    const saved = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-accounts.json'), 'utf8'));
    expect(saved.accounts.map((a: { password: string }) => a.password)).toEqual(accounts.map((a) => a.password));
    expect(fs.statSync(path.join(dataDir, 'demo-accounts.json')).mode & 0o077).toBe(0);
  }, 240_000);
});
