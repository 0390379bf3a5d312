// @engine-independent: rendering certificates and reading their QR codes and signatures; the records are written and read by the same queries as elsewhere (scripts/test.mjs leaves it out of the PostgreSQL pass).
/**
 * A certificate's offline proof (docs/decisions/0063-offline-verification.md): the QR code read by ZBar from
 * the rendered PDF carries the link and a JWS that verifies against the published JWKS, its facts are the
 * certificate's, its hash is the embedded data file's; a rotated-out key keeps verifying; tampering fails
 * with a reason; a published library (jose) verifies it as docs/integration.md shows.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { compactVerify, createLocalJWKSet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueReport, type IssuedReport } from '../src/server/modules/reports/issue';
import { checkProof, proofKeysOf, splitQrText, type ProofKey } from '../src/shared/offline-proof';
import { buildTestApp, type TestApp } from './helpers/app';
import { staffCookie } from './helpers/catalogue';
import { adminCookie } from './helpers/machine-data';
import { curve, tmpFile, unitWithRecords, type Unit } from './helpers/reports';

let t: TestApp;
let unit: Unit;
let first: IssuedReport;

async function issue(language: 'en' | 'zh'): Promise<IssuedReport> {
  const r = await issueReport(t.app.ctx.db, { serial: unit.serial, language, publicBaseUrl: t.app.ctx.config.publicBaseUrl });
  if (r.status !== 'issued') throw new Error(`expected issued, got ${r.status}`);
  return r.report;
}

/** Every QR code ZBar reads on page 1 rendered with `args` (pdftoppm's). */
function readCodes(bytes: Buffer, args: string[]): string[] {
  const file = tmpFile(bytes);
  const out = path.join(path.dirname(file), 'page');
  execFileSync('pdftoppm', [...args, '-png', '-f', '1', '-l', '1', '-singlefile', file, out]);
  const text = execFileSync('zbarimg', ['--quiet', '--raw', '-Sdisable', '-Sqrcode.enable', `${out}.png`], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return text.split('\n').filter(Boolean);
}

async function publishedKeys(): Promise<ProofKey[]> {
  const res = await t.app.inject({ url: '/.well-known/jwks.json' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('application/jwk-set+json');
  return proofKeysOf(res.json());
}

function embeddedJson(bytes: Buffer): Buffer {
  const file = tmpFile(bytes);
  execFileSync('pdfdetach', ['-saveall', '-o', path.dirname(file), file]);
  return fs.readFileSync(path.join(path.dirname(file), 'test-report.json'));
}

beforeAll(async () => {
  t = await buildTestApp();
  unit = await unitWithRecords(t, [
    { recordId: 'SHELL-1', testType: 'shell', testPressure: 2.4, holdingSeconds: 60, samples: curve(2.4, 60) },
    { recordId: 'SEAT-1', testType: 'seat', testPressure: 1.76, holdingSeconds: 30, samples: curve(1.76, 30) },
  ]);
  first = await issue('en');
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe("a certificate's offline proof", () => {
  it('is read by ZBar at 150 dpi and at a phone preview (1,170 px wide), and verifies against the JWKS', async () => {
    const keys = await publishedKeys();
    expect(keys).toHaveLength(1);
    for (const args of [
      ['-r', '150'],
      ['-scale-to-x', '1170', '-scale-to-y', '-1'],
    ]) {
      const codes = readCodes(first.bytes, args);
      expect(codes).toHaveLength(1);
      const { link, jws } = splitQrText(codes[0]!);
      expect(link).toBe(`http://localhost:3000/search?report=${first.id}`);
      const check = await checkProof(codes[0]!, keys);
      expect(check).toMatchObject({ status: 'genuine', kid: keys[0]!.kid, link });
      expect(jws!.length).toBeLessThan(300);
    }
  });

  it('reads from a compact certificate (no charts) with a long public address, at 150 dpi and at a phone preview', async () => {
    const plain = await unitWithRecords(t, [
      { recordId: 'P-SHELL', testType: 'shell', testPressure: 2.4, holdingSeconds: 60 },
      { recordId: 'P-SEAT', testType: 'seat', testPressure: 1.76, holdingSeconds: 30 },
    ]);
    const base = 'https://certificates.example-valves.com.tw';
    const r = await issueReport(t.app.ctx.db, { serial: plain.serial, language: 'zh', publicBaseUrl: base });
    if (r.status !== 'issued') throw new Error(r.status);
    const keys = await publishedKeys();
    for (const args of [
      ['-r', '150'],
      ['-scale-to-x', '1170', '-scale-to-y', '-1'],
    ]) {
      const [code] = readCodes(r.report.bytes, args);
      expect(code).toMatch(new RegExp(`^${base}/search\\?report=`));
      expect(await checkProof(code!, keys)).toMatchObject({ status: 'genuine', claims: { s: plain.serial } });
    }
  });

  it("states the certificate's number, serial, date of issue, result and the embedded data's SHA-256", async () => {
    const [code] = readCodes(first.bytes, ['-r', '150']);
    const check = await checkProof(code!, await publishedKeys());
    if (check.status !== 'genuine') throw new Error(check.status);
    expect(check.claims).toEqual({
      n: first.number,
      s: unit.serial,
      d: first.issuedAt.toISOString().slice(0, 10),
      r: 'pass',
      h: createHash('sha256').update(embeddedJson(first.bytes)).digest('base64url'),
    });
  });

  it('reads a forged, truncated or unknown-key proof as not genuine, with the reason', async () => {
    const keys = await publishedKeys();
    const [code] = readCodes(first.bytes, ['-r', '150']);
    const { link, jws } = splitQrText(code!);
    const [h, c, s] = jws!.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(c, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, r: 'pass', s: 'OTHER-000001' })).toString('base64url');
    expect(await checkProof(`${link}#${h}.${forged}.${s}`, keys)).toMatchObject({ status: 'not-genuine', reason: 'bad-signature' });
    expect(await checkProof(`${link}#${h}.${c}.${s.slice(0, 40)}`, keys)).toMatchObject({ status: 'not-genuine', reason: 'malformed' });
    expect(await checkProof(`${link}#${h}.${c}`, keys)).toMatchObject({ status: 'not-genuine', reason: 'malformed' });
    const otherKid = Buffer.from(JSON.stringify({ alg: 'EdDSA', kid: 'AAAAAAAA' })).toString('base64url');
    expect(await checkProof(`${otherKid}.${c}.${s}`, keys)).toMatchObject({ status: 'not-genuine', reason: 'unknown-key' });
    const none = Buffer.from(JSON.stringify({ alg: 'none', kid: keys[0]!.kid })).toString('base64url');
    expect(await checkProof(`${none}.${c}.${s}`, keys)).toMatchObject({ status: 'not-genuine', reason: 'malformed' });
    expect(await checkProof(link!, keys)).toEqual({ status: 'no-proof', link });
  });

  it('is verified by jose with the published JWKS, as docs/integration.md shows', async () => {
    const jwks = (await t.app.inject({ url: '/.well-known/jwks.json' })).json();
    const [code] = readCodes(first.bytes, ['-r', '150']);
    const jws = code!.split('#')[1]!;
    const { payload, protectedHeader } = await compactVerify(jws, createLocalJWKSet(jwks));
    expect(protectedHeader.alg).toBe('EdDSA');
    expect(JSON.parse(new TextDecoder().decode(payload)).n).toBe(first.number);
  });

  it('keeps verifying after the key is rotated; new certificates use the new key; rotation is audited and for admins only', async () => {
    const staff = await staffCookie(t);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/v1/settings/verification-keys/rotate', headers: { cookie: staff } })).statusCode,
    ).toBe(403);
    const admin = await adminCookie(t);
    const before = await publishedKeys();
    const rotated = await t.app.inject({ method: 'POST', url: '/api/v1/settings/verification-keys/rotate', headers: { cookie: admin } });
    expect(rotated.statusCode).toBe(200);
    const listed = rotated.json().data as Array<{ kid: string; retiredAt: string | null }>;
    expect(listed).toHaveLength(2);
    expect(listed[0]).toMatchObject({ kid: before[0]!.kid });
    expect(listed[0]!.retiredAt).not.toBeNull();
    expect(listed[1]!.retiredAt).toBeNull();
    // Not in the JWKS: anything but the standard members (no dates, never a private part).
    const jwks = (await t.app.inject({ url: '/.well-known/jwks.json' })).json() as { keys: Array<Record<string, unknown>> };
    expect(jwks.keys.map((k) => Object.keys(k).sort())).toEqual([
      ['alg', 'crv', 'kid', 'kty', 'use', 'x'],
      ['alg', 'crv', 'kid', 'kty', 'use', 'x'],
    ]);

    const keys = await publishedKeys();
    const [old] = readCodes(first.bytes, ['-r', '150']);
    expect(await checkProof(old!, keys)).toMatchObject({ status: 'genuine', kid: before[0]!.kid });
    // The other language's rendering, made after the rotation, is signed with the new key.
    const zh = await issue('zh');
    const [fresh] = readCodes(zh.bytes, ['-r', '150']);
    expect(await checkProof(fresh!, keys)).toMatchObject({ status: 'genuine', kid: listed[1]!.kid });

    const audit = await t.app.inject({
      url: `/api/v1/audit-log?entity=verification-key&entityId=${listed[1]!.kid}`,
      headers: { cookie: admin },
    });
    expect(audit.json().data.items?.[0] ?? audit.json().data[0]).toMatchObject({ action: 'update' });
    expect(JSON.stringify(audit.json())).not.toContain('PRIVATE KEY');
  });

  it('is checked by `npm run verify-qr` from a JPEG photo, a PDF or the text, with the keys from a file', async () => {
    const dir = path.dirname(tmpFile(first.bytes));
    const pdf = path.join(dir, 'certificate.pdf');
    fs.writeFileSync(pdf, first.bytes);
    execFileSync('pdftoppm', ['-r', '150', '-jpeg', '-f', '1', '-l', '1', '-singlefile', pdf, path.join(dir, 'photo')]);
    const keys = path.join(dir, 'jwks.json');
    {
      fs.writeFileSync(keys, (await t.app.inject({ url: '/.well-known/jwks.json' })).body);
      const run = (arg: string) => {
        try {
          return {
            code: 0,
            out: execFileSync('node_modules/.bin/tsx', ['scripts/verify-qr.ts', arg, '--keys', keys, '--offline'], { encoding: 'utf8' }),
          };
        } catch (err) {
          const e = err as { status: number; stdout: string; stderr: string };
          return { code: e.status, out: e.stdout + e.stderr };
        }
      };
      for (const input of [path.join(dir, 'photo.jpg'), pdf]) {
        const r = run(input);
        expect(r.code).toBe(0);
        expect(r.out).toContain('Genuine');
        expect(r.out).toContain(first.number);
        expect(r.out).toContain('cannot be known here');
      }
      const [code] = readCodes(first.bytes, ['-r', '150']);
      const tampered = code!.replace(/\.([\w-]+)\./, (_m, c: string) => `.${c.slice(0, -2)}${c.endsWith('A') ? 'B' : 'A'}${c.slice(-1)}.`);
      const bad = run(tampered);
      expect(bad.code).toBe(1);
      expect(bad.out).toContain('Not genuine');
      // A file it cannot read as an image: a usage error, not a verdict.
      expect(run(keys).code).toBe(2);
    }
  }, 60_000);

  it('serves the JWKS on a report host name and not the hidden paths beside it', async () => {
    expect((await t.app.inject({ url: '/.well-known/jwks.json', headers: { host: 'report.example.com' } })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/.well-known/../.env' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/.well-known/.secret' })).statusCode).toBe(404);
  });
});

describe('the keys of a new installation', () => {
  it('are published before the first report, and that report is signed with the key published', async () => {
    const fresh = await buildTestApp();
    try {
      const jwks = (await fresh.app.inject({ url: '/.well-known/jwks.json' })).json() as { keys: ProofKey[] };
      expect(jwks.keys).toHaveLength(1);
      const u = await unitWithRecords(fresh, [{ testType: 'shell', testPressure: 2.4, holdingSeconds: 60 }]);
      const r = await issueReport(fresh.app.ctx.db, {
        serial: u.serial,
        language: 'en',
        publicBaseUrl: fresh.app.ctx.config.publicBaseUrl,
      });
      if (r.status !== 'issued') throw new Error(r.status);
      const [code] = readCodes(r.report.bytes, ['-r', '150']);
      expect(await checkProof(code!, jwks.keys)).toMatchObject({ status: 'genuine', kid: jwks.keys[0]!.kid });
    } finally {
      await fresh.close();
    }
  });
});
