/**
 * A running server (test/helpers/server-process.ts) behind the small part of Fastify's `inject` that the
 * test helpers use, so the same helpers (catalogue, machine data, public requests) drive a real process
 * over HTTP. `remoteAddress` becomes X-Forwarded-For: start the server with TRUST_PROXY=127.0.0.1 for it
 * to count as the client's address.
 */
import type { FastifyInstance } from 'fastify';
import { request } from './server-process';

interface InjectOptions {
  method?: string;
  url: string;
  headers?: Record<string, string>;
  payload?: unknown;
  remoteAddress?: string;
}

export interface HttpResponse {
  statusCode: number;
  body: string;
  rawPayload: Buffer;
  headers: Record<string, string | string[] | undefined>;
  json(): any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export function httpApp(base: string): FastifyInstance {
  const inject = async (opts: InjectOptions): Promise<HttpResponse> => {
    const headers: Record<string, string> = { origin: base, ...opts.headers };
    let body: string | Buffer | undefined;
    if (opts.payload !== undefined) {
      if (typeof opts.payload === 'string' || Buffer.isBuffer(opts.payload)) body = opts.payload;
      else {
        body = JSON.stringify(opts.payload);
        headers['content-type'] ??= 'application/json';
      }
    }
    if (opts.remoteAddress) headers['x-forwarded-for'] = opts.remoteAddress;
    const res = await request(`${base}${opts.url}`, { method: opts.method, headers, body: body as string | undefined, raw: true });
    const text = res.raw!.toString('utf8');
    return { statusCode: res.status, body: text, rawPayload: res.raw!, headers: res.headers, json: () => JSON.parse(text) };
  };
  return { inject } as unknown as FastifyInstance;
}
