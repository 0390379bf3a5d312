/**
 * A labels PDF's response has a deadline sized to the labels asked for (docs/decisions/0041-labels-deadline.md):
 * a client that reads a few KB now and then, never idle long enough for the idle deadline, is cut off by it
 * and its drawing slot freed, so that others are served. Over real HTTP, with a deadline of 2 s set
 * through the configuration.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/server/config';
import { labelsDeadlineMs } from '../src/server/modules/serials/labels.service';
import { MAX_LABELS_PER_FILE } from '../src/shared/contract/labels';
import { buildTestApp, type TestApp } from './helpers/app';
import { addProduct, postRange, rangeBody, staffCookie } from './helpers/catalogue';
import { randomIp } from './helpers/factories';
import { series } from './helpers/public';

let t: TestApp;
let cookie: string;
let port: number;
beforeAll(async () => {
  t = await buildTestApp({ LABELS_DEADLINE_BASE_MS: '2000', LABELS_DEADLINE_PER_LABEL_MS: '0' });
  cookie = await staffCookie(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as net.AddressInfo).port;
});
afterAll(() => t.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A client that asks for a labels PDF and then reads 4 KB every 100 ms: never idle, far too slow for a
 * file of MBs. `drain()` then reads the rest as fast as it comes, until the connection ends.
 */
function slowReader(path: string) {
  const socket = net.connect(port, '127.0.0.1');
  socket.pause();
  socket.on('error', () => undefined);
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nCookie: ${cookie}\r\n\r\n`);
  const chunks: Buffer[] = [];
  const text = () => Buffer.concat(chunks).toString('latin1');
  const trickle = setInterval(() => {
    const chunk = (socket.read(4096) ?? socket.read()) as Buffer | null;
    if (chunk) chunks.push(chunk);
  }, 100);
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return {
    /** the status line, once the headers have come */
    async status(): Promise<string> {
      while (!text().includes('\r\n\r\n')) await sleep(20);
      return text().split('\r\n')[0]!;
    },
    async drain(): Promise<string> {
      clearInterval(trickle);
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.resume();
      await ended;
      return text();
    },
  };
}

describe('the labels deadline', () => {
  it('is a base and a share per label: a full file on a slow link is sent, a stalled one freed', () => {
    const { labels } = loadConfig({});
    expect(labels).toEqual({ deadlineBaseMs: 30_000, deadlinePerLabelMs: 40 });
    expect(labelsDeadlineMs(24, labels)).toBe(30_960);
    expect(labelsDeadlineMs(MAX_LABELS_PER_FILE, labels)).toBe(430_000);
  });

  it('cuts off two slow readers holding both drawing slots, and serves the next request', async () => {
    const product = await addProduct(t.app, cookie);
    const prefix = series();
    const serial = (n: number) => `${prefix}${String(n).padStart(6, '0')}`;
    const created = await postRange(t.app, cookie, rangeBody(product.id, serial(1), serial(MAX_LABELS_PER_FILE), MAX_LABELS_PER_FILE));
    expect(created.statusCode).toBe(201);
    const url = `/api/v1/serial-ranges/${created.json().data.id}/labels.pdf`;

    // 10,000 labels one a page: about 20 MB, far more than the socket buffers and the server's 1 MB backlog.
    const slow = [slowReader(`${url}?layout=single`), slowReader(`${url}?layout=single`)];
    for (const reader of slow) expect(await reader.status()).toBe('HTTP/1.1 200 OK');

    // Both slots are taken: a request waits for one to be freed (each from an address of its own, so
    // that the per-address rate limit is not what answers).
    const refused: string[] = [];
    for (;;) {
      const res = await t.app.inject({ url: `${url}?layout=sheet&to=${serial(5)}`, headers: { cookie }, remoteAddress: randomIp() });
      if (res.statusCode === 200) {
        expect(res.headers['content-type']).toBe('application/pdf');
        expect(res.rawPayload.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
        break;
      }
      expect(res.statusCode).toBe(429);
      refused.push(res.json().error.key);
      await sleep(100);
    }
    expect(refused.filter((key) => key !== 'labels.busy')).toEqual([]);

    // The slow readers' responses were cut by the server: each connection ended without the file's end.
    for (const reader of slow) {
      const received = await reader.drain();
      expect(received).toContain('%PDF-');
      expect(received).not.toContain('%%EOF');
    }
  }, 120_000);
});
