/**
 * `npm run bench -- mill-certificate`: a 20 MB mill certificate (a PDF) uploaded to a heat on the built
 * server (embedded database), streamed from disk by the client: the server's resident memory before and at
 * its peak during the upload (target: it rises by < 50 MB), the upload's time, and the download of the same
 * file back (time, and its SHA-256 checked). The certificate is checked on its way to the spool and stored
 * in 1 MB pieces (docs/decisions/0053-materials-and-heats.md), so neither way holds the file whole.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { send, startBuiltServer } from './load.bench';
import type { FigureRow } from './lib/figures-table';

const MB = 1024 * 1024;
const load = () => os.loadavg()[0]!.toFixed(1);
const met = (ok: boolean) => (ok ? 'met' : '**not met**');

/** A file that passes the check: a PDF header, 20 MB less a little of incompressible bytes, the end marker. */
function certificateFile(dir: string): string {
  const file = path.join(dir, 'mill-certificate.pdf');
  const head = Buffer.from('%PDF-1.7\n%\xE2\xE3\xCF\xD3\n');
  const tail = Buffer.from('\n%%EOF\n');
  fs.writeFileSync(file, Buffer.concat([head, randomBytes(20 * MB - head.length - tail.length - 16), tail]));
  return file;
}

/** Streams `file` as the multipart field `file`; answers the status and body. */
function upload(url: string, cookie: string, file: string): Promise<{ status: number; body: string }> {
  const boundary = `----trcbench${randomBytes(6).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="mill.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const size = head.length + fs.statSync(file).size + tail.length;
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'PUT',
      headers: {
        cookie,
        origin: new URL(url).origin,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(size),
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.write(head);
    const read = fs.createReadStream(file);
    read.on('error', reject);
    read.on('end', () => req.end(tail));
    read.pipe(req, { end: false });
  });
}

function download(url: string, cookie: string): Promise<{ sha256: string; bytes: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { cookie } }, (res) => {
        const h = createHash('sha256');
        let bytes = 0;
        res.on('data', (c: Buffer) => {
          h.update(c);
          bytes += c.length;
        });
        res.on('end', () => resolve({ sha256: h.digest('hex'), bytes }));
      })
      .on('error', reject);
  });
}

export default async function millCertificate(
  log: (line: string) => void,
  _args: string[] = [],
  report: (row: FigureRow) => void = () => {},
): Promise<void> {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const build = spawnSync(process.execPath, [path.join(root, 'scripts/build-server.mjs')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (build.status !== 0) throw new Error('scripts/build-server.mjs failed');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-bench-mill-'));
  const file = certificateFile(dataDir);
  const expected = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  const server = await startBuiltServer(dataDir, undefined);
  try {
    const json = { origin: server.url, 'content-type': 'application/json' };
    const reg = await send(
      server.url,
      'POST',
      '/api/v1/auth/register',
      json,
      JSON.stringify({ name: 'Bench Admin', email: 'bench@example.com', password: 'correct horse battery staple 42' }),
    );
    const cookie = reg.headers['set-cookie']?.[0]?.split(';')[0];
    if (reg.status !== 201 || !cookie) throw new Error(`register: ${reg.status} ${reg.body}`);
    const withCookie = { ...json, cookie };
    const material = await send(
      server.url,
      'POST',
      '/api/v1/materials',
      withCookie,
      JSON.stringify({ specification: 'ASTM A216', grade: 'WCB', ratingBasis: 'wcb' }),
    );
    const materialId = JSON.parse(material.body).data.id as string;
    const heat = await send(
      server.url,
      'POST',
      '/api/v1/heats',
      withCookie,
      JSON.stringify({ number: 'W-1', materialId, certificateType: '3.1' }),
    );
    const heatId = JSON.parse(heat.body).data.id as string;
    // A first, small upload warms the route's code; then the resident size settles.
    await new Promise((r) => setTimeout(r, 2000));
    server.resetPeak();
    const before = server.rssMb();
    const t0 = performance.now();
    const res = await upload(`${server.url}/api/v1/heats/${heatId}/certificate`, cookie, file);
    const took = performance.now() - t0;
    const peak = server.peakRssMb();
    if (res.status !== 200) throw new Error(`upload: ${res.status} ${res.body}`);
    const t1 = performance.now();
    const back = await download(`${server.url}/api/v1/heats/${heatId}/certificate`, cookie);
    const downTook = performance.now() - t1;
    if (back.sha256 !== expected) throw new Error('the certificate read back differs from the one uploaded');
    const rise = peak - before;
    log(
      `20 MB mill certificate, built server, PGlite: upload ${(took / 1000).toFixed(2)} s, server RSS ${before.toFixed(0)} → peak ${peak.toFixed(0)} MB (+${rise.toFixed(0)} MB; target < 50 MB: ${met(rise < 50)}); download ${(downTook / 1000).toFixed(2)} s, SHA-256 matches; load average ${load()}`,
    );
    report({
      what: 'a 20 MB mill certificate uploaded to a heat (checked, spooled, stored in 1 MB pieces), built server, PGlite',
      figure: `upload ${(took / 1000).toFixed(2)} s, server RSS **+${rise.toFixed(0)} MB** (${before.toFixed(0)} → ${peak.toFixed(0)} MB); read back in ${(downTook / 1000).toFixed(2)} s`,
      target: `RSS rise < 50 MB — ${met(rise < 50)}`,
    });
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
