// @engine-independent: drawing and streaming the labels PDF; the range is read by the same query as elsewhere (scripts/test.mjs leaves it out of the PostgreSQL pass).
/**
 * GET /api/v1/serial-ranges/:id/labels.pdf: nameplate QR labels of a range or a part of it. The QR code of a
 * rendered page decodes to the public page's link; a 10,000-unit range streams its file with bounded
 * memory; limits, validation and authorisation.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_LABELS_PER_FILE } from '../src/shared/contract/labels';
import { buildTestApp, type TestApp } from './helpers/app';
import { addProduct, postRange, rangeBody, staffCookie } from './helpers/catalogue';
import { randomIp } from './helpers/factories';
import { series } from './helpers/public';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

const BASE = 'https://labels.example.com';
let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await buildTestApp({ PUBLIC_BASE_URL: BASE });
  cookie = await staffCookie(t);
});
afterAll(() => t.close());

async function range(units: number, productName?: string, overrides: Record<string, unknown> = {}) {
  const product = await addProduct(t.app, cookie, { ...(productName ? { name: productName } : {}), ...overrides });
  const prefix = series();
  const serial = (n: number) => `${prefix}${String(n).padStart(6, '0')}`;
  const res = await postRange(t.app, cookie, rangeBody(product.id, serial(1), serial(units), units));
  if (res.statusCode !== 201) throw new Error(`range: ${res.statusCode} ${res.body}`);
  return { id: res.json().data.id as string, serial, productName: product.name };
}

function labels(id: string, query: Record<string, string> = {}, headers: Record<string, string> = { cookie }) {
  const qs = new URLSearchParams(query).toString();
  return t.app.inject({ url: `/api/v1/serial-ranges/${id}/labels.pdf${qs ? `?${qs}` : ''}`, headers, remoteAddress: randomIp() });
}

/** Pages of a pdfkit file: its page objects are written uncompressed, one `/Type /Page` each. */
const pageCount = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type \/Page\b(?!s)/g) ?? []).length;

/** Page 1 as a PNG (pdftoppm), every QR code found on it by scanning each label's cell. */
function pageImage(pdf: Buffer, dpi: number): PNG {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-labels-'));
  const file = path.join(dir, 'labels.pdf');
  fs.writeFileSync(file, pdf);
  execFileSync('pdftoppm', ['-r', String(dpi), '-png', '-f', '1', '-l', '1', file, path.join(dir, 'page')]);
  const png = fs.readdirSync(dir).find((f) => f.endsWith('.png'))!;
  const image = PNG.sync.read(fs.readFileSync(path.join(dir, png)));
  fs.rmSync(dir, { recursive: true, force: true });
  return image;
}

/** Decodes the QR code inside the rectangle (fractions of the page) of `image`. */
function decodeAt(image: PNG, x0: number, y0: number, x1: number, y1: number): string | null {
  const left = Math.floor(x0 * image.width);
  const top = Math.floor(y0 * image.height);
  const w = Math.floor((x1 - x0) * image.width);
  const h = Math.floor((y1 - y0) * image.height);
  const out = new Uint8ClampedArray(w * h * 4);
  for (let y = 0; y < h; y++) {
    const from = ((top + y) * image.width + left) * 4;
    out.set(image.data.subarray(from, from + w * 4), y * w * 4);
  }
  return jsQR(out, w, h)?.data ?? null;
}

describe('labels PDF', () => {
  it('prints an A4 sheet whose QR codes decode to the public link of each serial', async () => {
    const r = await range(50, `閘閥 Gate Valve DN50`);
    const res = await labels(r.id, { layout: 'sheet' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="labels-${r.serial(1)}-${r.serial(50)}.pdf"`);
    const pdf = res.rawPayload;
    // 24 labels a page: 50 → 3 pages.
    expect(pageCount(pdf)).toBe(3);
    const image = pageImage(pdf, 150);
    // First label (row 1, column 1) and the fifth (row 2, column 2): 3 columns × 8 rows.
    expect(decodeAt(image, 0, 0, 1 / 3 - 0.1, 1 / 8)).toBe(`${BASE}/id/${r.serial(1)}`);
    expect(decodeAt(image, 1 / 3, 1 / 8, 2 / 3 - 0.1, 2 / 8)).toBe(`${BASE}/id/${r.serial(5)}`);
    // A second reader, ZBar, finds every code of the first page at 150 dpi: the 24 identification links. It
    // reads each row of labels on its own (bands that overlap by a quarter row, so no code is cut): on the
    // whole page at once it missed one of the 24 in some runs (the serials differ each run), as a phone would
    // not, which frames one label at a time.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-labels-'));
    try {
      const files = Array.from({ length: 8 }, (_, row) => {
        const top = Math.max(0, Math.floor(((row - 0.25) / 8) * image.height));
        const bottom = Math.min(image.height, Math.ceil(((row + 1.25) / 8) * image.height));
        const band = new PNG({ width: image.width, height: bottom - top });
        PNG.bitblt(image, band, 0, top, image.width, bottom - top, 0, 0);
        const file = path.join(dir, `row-${row}.png`);
        fs.writeFileSync(file, PNG.sync.write(band));
        return file;
      });
      const read = execFileSync('zbarimg', ['-q', '--raw', ...files], { stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim()
        .split('\n');
      expect([...new Set(read)].sort()).toEqual(Array.from({ length: 24 }, (_, i) => `${BASE}/id/${r.serial(i + 1)}`).sort());
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    // The serial and the product name are printed beside the code.
    const text = execFileSync('pdftotext', ['-f', '1', '-l', '1', '-', '-'], { input: pdf }).toString();
    expect(text).toContain(r.serial(1));
    expect(text).toContain(r.serial(24));
    expect(text).not.toContain(r.serial(25));
    expect(text).toContain('閘閥 Gate Valve DN50');
  });

  it('prints the GS1 Digital Link of each unit when the product has a GTIN', async () => {
    const r = await range(10, undefined, { gtin: '4006381333931' });
    const res = await labels(r.id, { layout: 'single', from: r.serial(3), to: r.serial(3) });
    expect(res.statusCode).toBe(200);
    expect(decodeAt(pageImage(res.rawPayload, 300), 0, 0, 0.6, 1)).toBe(`${BASE}/01/04006381333931/21/${r.serial(3)}`);
  });

  it('prints a part of the range one 50 × 30 mm label a page', async () => {
    const r = await range(100);
    const res = await labels(r.id, { layout: 'single', from: r.serial(10).toLowerCase(), to: r.serial(14) });
    expect(res.statusCode).toBe(200);
    const pdf = res.rawPayload;
    expect(pageCount(pdf)).toBe(5);
    expect(pdf.toString('latin1')).toMatch(/\/MediaBox \[0 0 141\.73\d* 85\.03\d*\]/);
    const image = pageImage(pdf, 300);
    expect(decodeAt(image, 0, 0, 0.6, 1)).toBe(`${BASE}/id/${r.serial(10)}`);
    const text = execFileSync('pdftotext', ['-f', '5', '-l', '5', '-', '-'], { input: pdf }).toString();
    expect(text).toContain(r.serial(14));
    expect(text.replace(/\s+/g, ' ')).toContain(r.productName);
  });

  it('refuses serials outside the range, a reversed part and unknown layouts, in the user’s language', async () => {
    const r = await range(100);
    const outside = await labels(r.id, { from: r.serial(1).replace(/\d+$/, '000101') });
    expect(outside.statusCode).toBe(400);
    expect(outside.json().error.fields).toEqual([
      expect.objectContaining({
        field: 'from',
        key: 'labels.outsideRange',
        message: `The serial must lie within the range ${r.serial(1)} – ${r.serial(100)}`,
      }),
    ]);
    const reversed = await labels(r.id, { from: r.serial(20), to: r.serial(10) });
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().error.fields[0]).toMatchObject({ field: 'to', key: 'labels.toBeforeFrom' });
    const zhCookie = await staffCookie(t, { language: 'zh' });
    const zh = await labels(r.id, { to: 'XX-1' }, { cookie: zhCookie, 'accept-language': 'zh-TW' });
    expect(zh.statusCode).toBe(400);
    expect(zh.json().error.fields[0].message).toContain('序號必須在範圍');
    const layout = await labels(r.id, { layout: 'poster' });
    expect(layout.statusCode).toBe(400);
    expect(layout.json().error.fields[0]).toMatchObject({ field: 'layout' });
    const notSerial = await labels(r.id, { from: 'no serial' });
    expect(notSerial.statusCode).toBe(400);
    expect((await labels('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await labels('nope')).statusCode).toBe(404);
  });

  it('refuses more than the per-file limit and asks for a part', async () => {
    const r = await range(MAX_LABELS_PER_FILE + 1);
    const res = await labels(r.id);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields[0]).toMatchObject({ field: 'to', key: 'labels.tooMany', params: { max: MAX_LABELS_PER_FILE } });
    const part = await labels(r.id, { from: r.serial(2), to: r.serial(3), layout: 'single' });
    expect(part.statusCode).toBe(200);
    expect(pageCount(part.rawPayload)).toBe(2);
  });

  it('is for signed-in staff only', async () => {
    const r = await range(10);
    expect((await labels(r.id, {}, {})).statusCode).toBe(401);
  });
});

/** The collector, so that memory is measured as what is held, not what is yet to be collected. */
function collector(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

/** What the process holds after a full collection: the JS heap, and the buffers outside it. */
function held(gc: () => void): { heap: number; buffers: number } {
  gc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, buffers: m.arrayBuffers };
}

describe('a 10,000-unit range', () => {
  it('streams 10,000 labels, drawing no faster than the client reads', async () => {
    const r = await range(MAX_LABELS_PER_FILE);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address() as { port: number };
    const gc = collector();
    // One small file first: fonts parsed and caches warm, so that they are not counted as the file's.
    expect((await labels(r.id, { layout: 'single', to: r.serial(30) })).statusCode).toBe(200);
    const before = held(gc);
    const res = await fetch(`http://127.0.0.1:${address.port}/api/v1/serial-ranges/${r.id}/labels.pdf?layout=single`, {
      headers: { cookie },
    });
    expect(res.status).toBe(200);
    let bytes = 0;
    let pages = 0;
    let tail = '';
    let heapGrowth = 0;
    let whilePaused = { heap: 0, buffers: 0 };
    let nextSample = 0;
    const reader = res.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (bytes === 0) {
        // A client that stops reading for a while: the server waits for it instead of drawing the rest into memory.
        await new Promise((resolve) => setTimeout(resolve, 2000));
        whilePaused = held(gc);
      }
      bytes += value.length;
      // Counted as it arrives (a page object may straddle two chunks: a short tail is carried over), never kept.
      const text = tail + Buffer.from(value).toString('latin1');
      pages += (text.match(/\/Type \/Page\b(?!s)/g) ?? []).length;
      tail = text.slice(-12).replace(/\/Type \/Page[\s\S]*$/, '');
      if (bytes >= nextSample) {
        heapGrowth = Math.max(heapGrowth, held(gc).heap - before.heap);
        nextSample = bytes + 2 * 1024 * 1024;
      }
    }
    expect(pages).toBe(MAX_LABELS_PER_FILE);
    // The file is tens of MB. While the client paused, the server held about a MB of it (its backlog limit);
    // and the heap grows by less than the file: pdfkit's written pages and shaped serials are let go, and
    // what stays until the end (the page tree and the cross-reference offsets, under a KB a page) was
    // measured at 7–9 MB for the 10,000 pages, depending on when the collector ran.
    expect(bytes).toBeGreaterThan(10 * 1024 * 1024);
    // The heap only: the buffers also hold what this process's own HTTP client has read off the socket
    // ahead of the paused reader (more on PostgreSQL, where the server draws faster), which is not the server's.
    expect(whilePaused.heap - before.heap).toBeLessThan(8 * 1024 * 1024);
    expect(heapGrowth).toBeLessThan(12 * 1024 * 1024);
  });
});
