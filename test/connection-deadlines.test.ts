/**
 * A client trickling bytes (a slow-loris) is disconnected by the connection deadlines of config.ts, both
 * while sending its headers and while sending a body; an ordinary request on the same server still answers.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/server/config';
import { buildTestApp, type TestApp } from './helpers/app';

let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await buildTestApp({ HEADERS_TIMEOUT_MS: '400', REQUEST_TIMEOUT_MS: '800', IDLE_TIMEOUT_MS: '5000' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as net.AddressInfo).port;
});
afterAll(async () => t.close());

/** Sends `prefix`, then one byte of `drip` at a time until the server closes the socket or `drip` runs out. */
function trickle(prefix: string, drip: string): Promise<{ closedByServer: boolean; answer: string }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    let i = 0;
    let timer: NodeJS.Timeout | undefined;
    socket.on('data', (d) => (answer += d.toString('latin1')));
    const finish = (closedByServer: boolean) => {
      clearInterval(timer);
      socket.destroy();
      resolve({ closedByServer, answer });
    };
    socket.on('close', () => finish(true));
    socket.on('error', () => undefined);
    socket.on('connect', () => {
      socket.write(prefix);
      timer = setInterval(() => {
        if (i >= drip.length) return finish(false);
        socket.write(drip[i++]!);
      }, 150);
    });
  });
}

describe('connection deadlines', () => {
  it('closes a connection that trickles its headers', async () => {
    const r = await trickle('GET /healthz HTTP/1.1\r\n', 'Host: localhost\r\nX-Slow: ' + 'a'.repeat(200));
    expect(r.closedByServer).toBe(true);
  }, 60_000);

  it('closes a connection that trickles its body, answering 408', async () => {
    const r = await trickle(
      'POST /api/v1/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n',
      '{"email":"' + 'a'.repeat(390),
    );
    expect(r.closedByServer).toBe(true);
    expect(r.answer).toMatch(/^HTTP\/1\.1 408/);
  }, 60_000);

  it('still answers an ordinary request', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(res.status).toBe(200);
  });

  it('has deadlines by default, and each is configurable', () => {
    expect(loadConfig({}).timeouts).toEqual({ headersMs: 15_000, requestMs: 60_000, idleMs: 60_000, keepAliveMs: 5_000 });
    expect(loadConfig({ KEEP_ALIVE_TIMEOUT_MS: '2000' }).timeouts.keepAliveMs).toBe(2000);
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '0' })).toThrow(/^Invalid REQUEST_TIMEOUT_MS=/);
  });
});
