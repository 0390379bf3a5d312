// @engine-independent: which packages the module graph loads (scripts/test.mjs leaves it out of the PostgreSQL pass).
/**
 * The packages only some requests need are loaded on their first use, not when the server's modules load
 * (docs/decisions/0033-server-memory.md): pdfkit and fontkit (about 6 MB of heap) when the first PDF is
 * drawn, node-forge and @signpdf (certificates and signatures), qrcode and nodemailer (about 7 MB together)
 * when the first certificate, code or email is made, ioredis only with REDIS_URL, node-postgres only with
 * DATABASE_URL (or on the first COPY). A child process loads the app's whole module graph (src/server/app.ts)
 * with a resolve hook that writes down every module it resolves, and says which of the packages were loaded
 * at that point and after each first use.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-lazy-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const LAZY = ['pdfkit', 'fontkit', 'node-forge', '@signpdf', 'qrcode', 'nodemailer', 'ioredis', 'pg', 'pg-copy-streams', 'koffi'];

/** An ESM resolve hook (run on the loader's thread) that appends each resolved URL of a lazy package to SEEN_FILE. */
const HOOK = `import fs from 'node:fs';
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  if (/node_modules\\/(${LAZY.join('|')})\\//.test(r.url)) fs.appendFileSync(process.env.SEEN_FILE, r.url + '\\n');
  return r;
}`;

/** Which lazy packages the process has loaded (through import: the hook's file; or require: its cache), at start and after each first use. */
const PROBE = (src: (p: string) => string) => `
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
const loaded = () => {
  const seen = fs.existsSync(process.env.SEEN_FILE) ? fs.readFileSync(process.env.SEEN_FILE, 'utf8') : '';
  const required = Object.keys(createRequire(import.meta.url).cache).join('\\n');
  return ${JSON.stringify(LAZY)}.filter((p) => seen.includes('/node_modules/' + p + '/') || required.includes('/node_modules/' + p + '/'));
};
await import(${JSON.stringify(src('src/server/app.ts'))});
const out = { atStart: loaded() };
const PDFDocument = await (await import(${JSON.stringify(src('src/server/lib/pdfkit.ts'))})).loadPdfkit();
const doc = new PDFDocument({ autoFirstPage: false });
out.drawable = typeof doc.addPage === 'function';
out.afterFirstPdf = loaded();
const { generateSelfSigned } = await import(${JSON.stringify(src('src/server/lib/signing/certificate.ts'))});
out.certificateIsPem = generateSelfSigned('ACME Valves').certPem.startsWith('-----BEGIN CERTIFICATE-----');
out.afterCertificate = loaded();
const { addSignaturePlaceholder } = await import(${JSON.stringify(src('src/server/lib/signing/signature-placeholder.ts'))});
doc.addPage();
addSignaturePlaceholder(doc, { name: 'n', reason: 'r', location: 'l', contactInfo: 'c', signingTime: new Date(), signatureLength: 64 });
out.afterPlaceholder = loaded();
const { bestMaskCode } = await import(${JSON.stringify(src('src/server/lib/pdf-kit/pdf-qr.ts'))});
out.qrSize = bestMaskCode('https://example.com/v/ABC').modules.size;
out.afterQr = loaded();
const { createFileTransport } = await import(${JSON.stringify(src('src/server/mail/transports.ts'))});
const outbox = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-lazy-outbox-'));
const quiet = { info() {}, warn() {}, error() {} };
const transport = createFileTransport(outbox, 'Reports <reports@example.com>', quiet);
out.afterTransport = loaded();
const row = { id: 1, kind: 'report', recipient: 'a@example.com', subject: 's', textBody: 't', htmlBody: null, attachments: [], createdAt: new Date() };
const sent = await transport.send(row);
out.emlWritten = fs.existsSync(sent.location);
out.afterEmail = loaded();
await transport.close();
fs.rmSync(outbox, { recursive: true, force: true });
console.log(JSON.stringify(out));
`;

describe('packages only some requests need are loaded on first use, not with the server', () => {
  it('leaves them out of the app module graph until a PDF, a certificate, a QR code or an email is made', () => {
    const hook = path.join(dir, 'hook.mjs');
    fs.writeFileSync(hook, HOOK);
    const register = path.join(dir, 'register.mjs');
    fs.writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hook).href)});\n`);
    const probe = path.join(dir, 'probe.mjs');
    fs.writeFileSync(
      probe,
      PROBE((p) => pathToFileURL(path.join(root, p)).href),
    );
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--import', pathToFileURL(register).href, probe], {
      cwd: root,
      env: { ...process.env, SEEN_FILE: path.join(dir, 'seen.txt') },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, unknown>;
    expect(out.atStart).toEqual([]);
    expect(out.afterFirstPdf).toEqual(expect.arrayContaining(['pdfkit']));
    expect(out.afterFirstPdf).not.toContain('node-forge');
    expect(out.drawable).toBe(true);
    expect(out.afterCertificate).toContain('node-forge');
    expect(out.afterCertificate).not.toContain('@signpdf');
    expect(out.certificateIsPem).toBe(true);
    expect(out.afterPlaceholder).toContain('@signpdf');
    expect(out.afterPlaceholder).not.toContain('qrcode');
    expect(out.qrSize).toBeGreaterThan(20);
    expect(out.afterQr).toContain('qrcode');
    // Making the transport loads nothing; the first message does.
    expect(out.afterTransport).not.toContain('nodemailer');
    expect(out.emlWritten).toBe(true);
    expect(out.afterEmail).toContain('nodemailer');
    // ioredis only where REDIS_URL is set (app.ts), node-postgres only where DATABASE_URL is (db/client.ts):
    // the Redis tests and the PostgreSQL pass load them there.
    expect(out.afterEmail).not.toContain('ioredis');
    expect(out.afterEmail).not.toContain('pg');
  }, 150_000);
});
