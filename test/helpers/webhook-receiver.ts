/**
 * A webhook receiver on 127.0.0.1 for tests: it verifies every request with the `standardwebhooks` package
 * exactly as a customer's system would, and answers as the test tells it (status, delay, redirect, down).
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  id: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  payload: { type: string; timestamp: string; data: Record<string, unknown> } | null;
  /** null: the signature verified with the receiver's secret */
  verifyError: string | null;
}

export type Behaviour = { status?: number; delayMs?: number; headers?: Record<string, string>; body?: string } | 'hang';

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** the secret it verifies with (set after the endpoint is created or rotated) */
  secret: string;
  /** how it answers the next requests (each call of the function gets the request's number, from 0) */
  behave: (n: number) => Behaviour;
  close(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const sockets = new Set<Socket>();
  const r: Receiver = { url: '', port: 0, received: [], secret: '', behave: () => ({ status: 204 }), close: async () => {} };
  let n = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let verifyError: string | null = null;
      let payload: Received['payload'] = null;
      try {
        payload = new Webhook(r.secret).verify(body, req.headers as Record<string, string>) as Received['payload'];
      } catch (err) {
        verifyError = (err as Error).message;
      }
      r.received.push({ id: String(req.headers['webhook-id']), headers: req.headers, body, payload, verifyError });
      const b = r.behave(n++);
      if (b === 'hang') return;
      const answer = () => {
        res.writeHead(b.status ?? 204, b.headers ?? {});
        res.end(b.body ?? '');
      };
      if (b.delayMs) setTimeout(answer, b.delayMs);
      else answer();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  r.port = (server.address() as AddressInfo).port;
  r.url = `http://127.0.0.1:${r.port}/hooks`;
  r.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return r;
}
