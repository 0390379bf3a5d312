// @engine-independent: the demo runs on the embedded database only (scripts/test.mjs leaves it out of the PostgreSQL pass).
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
import { dueState } from '../src/shared/contract/instruments';

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

      // Customers, orders and deliveries: one open delivery held by a failed retest, one ready, one released.
      const login = await fetch(`${url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: url },
        body: JSON.stringify({ email: accounts[0]!.email, password: accounts[0]!.password }),
      });
      const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
      const get = async (p: string) => JSON.parse((await request(`${url}${p}`, { headers: { cookie } })).body).data;
      const customers = await get('/api/v1/customers?sort=code');
      expect(customers.items.map((c: { code: string; language: string }) => `${c.code}:${c.language}`)).toEqual([
        'GCC:en',
        'NWU:en',
        'TPR:zh',
      ]);
      expect(
        customers.items.every((c: { contacts: { receivesCertificates: boolean }[] }) => c.contacts.some((k) => k.receivesCertificates)),
      ).toBe(true);
      const deliveries = (await get('/api/v1/deliveries?sort=number')).items as { id: string; number: string; status: string }[];
      expect(deliveries.map((d) => d.number)).toEqual(['NWU-DN-2291-1', 'TPR-DN-0117-1', 'TPR-DN-0117-2']);
      expect(deliveries.slice(1).map((d) => d.status)).toEqual(['open', 'open']);
      // The started release ends released by the server's own release work, which sends the buyer's link.
      const until = Date.now() + 90_000;
      let released = await get(`/api/v1/deliveries/${deliveries[0]!.id}`);
      while (released.status === 'releasing' && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 500));
        released = await get(`/api/v1/deliveries/${deliveries[0]!.id}`);
      }
      expect(released).toMatchObject({ status: 'released', issuedCount: 5, unitCount: 5, releaseLanguage: 'en', releaseError: null });
      expect(released.units.every((u: { reportNumber: string | null }) => u.reportNumber)).toBe(true);
      expect(released.links).toMatchObject([{ source: 'release', sentTo: ['erik.lund@nwu.example'], revokedAt: null }]);
      const gate = await get(`/api/v1/deliveries/${deliveries[1]!.id}/gate`);
      expect(gate.held).toBe(1);
      expect(gate.units.find((u: { status: string }) => u.status !== 'pass').held.map((h: { kind: string }) => h.kind)).toContain('failed');
      expect((await get(`/api/v1/deliveries/${deliveries[2]!.id}/gate`)).held).toBe(0);
      expect((await get('/api/v1/dashboard')).deliveries).toEqual({ awaitingRelease: 2, heldUnits: 1 });

      // Each bench's gauge with its calibrations; Hydro Bench 2's due within 30 days, Hydro Bench 3's overdue
      // and its records since then held for it.
      const today = new Date().toISOString().slice(0, 10);
      const benches = (await get('/api/v1/machines?sort=name')).items as { id: string; name: string }[];
      const gauges = await Promise.all(benches.map(async (b) => (await get(`/api/v1/machines/${b.id}/instruments`))[0]));
      expect(gauges.map((g) => [g.instrumentId, dueState(g.dueOn, today)])).toEqual([
        ['PG-11', 'current'],
        ['PG-21', 'due-soon'],
        ['PG-31', 'overdue'],
      ]);
      expect(gauges[0].calibrations.length).toBeGreaterThan(5);
      const afterDue = new Date(Date.parse(gauges[2].dueOn) + 86_400_000).toISOString().slice(0, 10);
      const held = await get(`/api/v1/machine-data?machineId=${benches[2]!.id}&testedFrom=${afterDue}`);
      expect(held.items.length).toBeGreaterThan(0);
      expect(
        held.items.every((r: { assessment: { reasons: string[] } }) => r.assessment.reasons.includes('instrument-not-calibrated')),
      ).toBe(true);

      // Materials and heats: every heat has its mill certificate (a PDF); one CF8M body heat is on hold, and
      // the range made from it names it for its bodies.
      const materials = await get('/api/v1/materials');
      expect(materials.map((m: { grade: string }) => m.grade)).toEqual(
        expect.arrayContaining(['WCB', 'CF8M', 'F316', 'EN-GJS-400-18', '1.4408']),
      );
      const heats = (await get('/api/v1/heats?pageSize=100')).items as { id: string; status: string; file: unknown; rangeCount: number }[];
      expect(heats.length).toBeGreaterThan(5);
      expect(heats.filter((h) => h.status === 'hold')).toHaveLength(1);
      expect(heats.filter((h) => h.status === 'released').every((h) => h.file !== null && h.rangeCount > 0)).toBe(true);
      const pdf = await fetch(`${url}/api/v1/heats/${heats.find((h) => h.file)!.id}/certificate`, { headers: { cookie } });
      expect(pdf.headers.get('content-type')).toContain('application/pdf');
      expect(
        Buffer.from(await pdf.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-');
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
