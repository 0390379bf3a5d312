/**
 * The streamed ZIP (src/server/lib/zip-stream.ts): valid for an independent unzip with UTF-8 names and
 * empty entries, refused past what a ZIP without ZIP64 holds, and paced by its reader: a reader that stops
 * stops the producer, and one that goes away ends it. Then the delivery's ZIP over a real connection whose
 * client never reads: the server stops reading certificates from the database once the socket is full,
 * and reads none after the client has gone.
 */
import net from 'node:net';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { deliveryZipPdfs } from '../src/server/lib/metrics';
import { writeZip, ZIP_MAX_ENTRIES, zipFits, ZipLimitError, type ZipEntry } from '../src/server/lib/zip-stream';
import { issueReport } from '../src/server/modules/reports/issue';
import { buildTestApp, type TestApp } from './helpers/app';
import { staffCookie } from './helpers/catalogue';
import { linkTo } from './helpers/deliveries';
import { addCustomer, addDelivery, addOrder, post, productWithRange, serialsOf } from './helpers/orders';
import { testData } from './helpers/public';
import { checkZip, readZip } from './helpers/unzip';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

/** A Writable that keeps what it gets. */
function collector(): { out: Writable; bytes: () => Buffer } {
  const chunks: Buffer[] = [];
  const out = new Writable({
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk);
      cb();
    },
  });
  return { out, bytes: () => Buffer.concat(chunks) };
}

async function* listed(entries: ZipEntry[]): AsyncGenerator<ZipEntry> {
  yield* entries;
}

describe('writeZip', () => {
  it('writes an archive that unzip accepts, names in UTF-8, empty entries included', async () => {
    const entries = [
      { name: 'index.json', data: Buffer.from('{"a":1}') },
      { name: '閥門-標籤 1.pdf', data: Buffer.from('%PDF-1.7 not really\n'.repeat(500)) },
      { name: 'empty.txt', data: Buffer.alloc(0) },
    ];
    const { out, bytes } = collector();
    expect(await writeZip(out, listed(entries))).toBe('done');
    expect(out.writableEnded).toBe(true);
    checkZip(bytes());
    expect(readZip(bytes())).toEqual(entries.map((e) => ({ name: e.name, data: Buffer.from(e.data) })));
  });

  it('asks for the next entry only when the reader has taken the last one, and stops when the reader goes', async () => {
    let asked = 0;
    let ended = false;
    async function* many(): AsyncGenerator<ZipEntry> {
      try {
        for (let i = 0; i < 1000; i++) {
          asked++;
          yield { name: `${i}.pdf`, data: Buffer.alloc(64 * 1024, i) };
        }
      } finally {
        ended = true;
      }
    }
    // A reader that takes the first chunk and then never again.
    const stuck = new Writable({ highWaterMark: 16 * 1024, write: () => undefined });
    const writing = writeZip(stuck, many());
    await new Promise((r) => setTimeout(r, 200));
    expect(asked).toBe(1);
    stuck.destroy();
    expect(await writing).toBe('aborted');
    expect(ended).toBe(true);
    expect(asked).toBe(1);
  });

  it('refuses what would need ZIP64', async () => {
    expect(zipFits([{ nameBytes: 10, size: 2 ** 31 }])).toBe(true);
    expect(
      zipFits([
        { nameBytes: 10, size: 2 ** 31 },
        { nameBytes: 10, size: 2 ** 31 },
      ]),
    ).toBe(false);
    expect(zipFits(Array.from({ length: ZIP_MAX_ENTRIES + 1 }, () => ({ nameBytes: 1, size: 0 })))).toBe(false);
    async function* tooMany(): AsyncGenerator<ZipEntry> {
      for (let i = 0; i <= ZIP_MAX_ENTRIES; i++) yield { name: `${i}`, data: Buffer.alloc(0) };
    }
    await expect(writeZip(collector().out, tooMany())).rejects.toBeInstanceOf(ZipLimitError);
  });
});

describe("a delivery's ZIP to a client that never reads", () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => t.close());

  const pdfsRead = async () => (await deliveryZipPdfs.get()).values[0]?.value ?? 0;

  /** Polls until the count has not moved for a second. */
  async function settled(): Promise<number> {
    let last = -1;
    let still = 0;
    for (let i = 0; i < 150 && still < 5; i++) {
      await new Promise((r) => setTimeout(r, 200));
      const now = await pdfsRead();
      still = now === last ? still + 1 : 0;
      last = now;
    }
    return last;
  }

  it('stops reading certificates when the socket is full, and reads none once the client is gone', async () => {
    const cookie = await staffCookie(t);
    const units = 600;
    const product = await productWithRange(t.app, cookie, 'ZS-', units);
    const customer = await addCustomer(t.app, cookie);
    const po = await addOrder(t.app, cookie, customer.id, [{ line: 1, productId: product.id, quantity: units }]);
    const d = await addDelivery(t.app, cookie, po.id);
    const serials = serialsOf('ZS-', 1, units);
    await post(t.app, cookie, `/api/v1/deliveries/${d.id}/serials`, { units: serials.map((serial) => ({ serial, line: 1 })) }, 200);
    // One real certificate, which every unit points at: 600 entries of its size, without issuing 600.
    await testData(t, serials[0]!);
    const issued = await issueReport(t.app.ctx.db, { serial: serials[0]!, language: 'en', publicBaseUrl: t.config.publicBaseUrl });
    if (issued.status !== 'issued') throw new Error(issued.status);
    await t.app.ctx.db.execute(sql`UPDATE delivery_units SET report_id = ${issued.report.id} WHERE delivery_id = ${d.id}::uuid`);
    await t.app.ctx.db.execute(
      sql`UPDATE deliveries SET status = 'released', released_at = now(), issued_count = ${units} WHERE id = ${d.id}::uuid`,
    );
    const total = units * issued.report.bytes.length;
    expect(total).toBeGreaterThan(20 * 1024 * 1024); // well past what the kernel buffers of a loopback socket take
    const { token } = await linkTo(t, d.id);

    const before = await pdfsRead();
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.pause();
    socket.write(`GET /api/v1/public/deliveries/${token}.zip HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
    const stalled = (await settled()) - before;
    expect(stalled).toBeGreaterThan(0);
    expect(stalled).toBeLessThan(units / 2);

    socket.destroy();
    await new Promise((r) => setTimeout(r, 1000));
    expect((await pdfsRead()) - before).toBe(stalled);
    // The server is well: the same link is answered again.
    expect((await t.app.inject({ url: `/api/v1/public/deliveries/${token}` })).statusCode).toBe(200);
  });
});
