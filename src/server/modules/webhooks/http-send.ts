/**
 * One webhook request: resolved and checked by the SSRF guard, connected to the checked address (the
 * `lookup` below answers with it, so no second DNS query can change it), one deadline for the whole
 * exchange, no redirect followed, the answer's body read up to 4 KiB for the log.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { BlockedAddressError, resolveTarget, type GuardOptions, type Lookup } from './ssrf-guard';

/** What the log keeps of a receiver's answer. */
export const RESPONSE_BODY_CAP = 4096;

export interface SendInput {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  guard: GuardOptions;
  /** the DNS lookup to check (tests give their own); default: the system's */
  lookup?: Lookup;
}

export interface SendResult {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string | null;
}

function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
}

export async function sendWebhook(input: SendInput): Promise<SendResult> {
  const started = performance.now();
  const done = (r: Omit<SendResult, 'durationMs'>): SendResult => ({ ...r, durationMs: Math.round(performance.now() - started) });
  let target: { address: string; family: 4 | 6 };
  const url = new URL(input.url);
  try {
    target = await resolveTarget(url.hostname.replace(/^\[|\]$/g, ''), input.guard, input.lookup);
  } catch (err) {
    const message = err instanceof BlockedAddressError ? err.message : `DNS: ${(err as Error).message}`;
    return done({ ok: false, statusCode: null, error: message, responseBody: null });
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (r: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done(r));
    };
    const req = client.request(
      {
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: { ...input.headers, 'content-length': Buffer.byteLength(input.body) },
        lookup: pinnedLookup(target.address, target.family),
        // A fresh connection each time: a pooled one may have been opened to an address checked earlier.
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const statusCode = res.statusCode ?? 0;
        const end = () => {
          const body = Buffer.concat(chunks).subarray(0, RESPONSE_BODY_CAP).toString('utf8');
          const ok = statusCode >= 200 && statusCode < 300;
          const error = ok
            ? null
            : statusCode >= 300 && statusCode < 400
              ? `redirect ${statusCode} not followed${res.headers.location ? ` (to ${String(res.headers.location).slice(0, 200)})` : ''}`
              : `HTTP ${statusCode}`;
          finish({ ok, statusCode, error, responseBody: body || null });
        };
        res.on('data', (chunk: Buffer) => {
          if (size < RESPONSE_BODY_CAP) chunks.push(chunk);
          size += chunk.length;
          // Enough for the log: the rest is not read (a receiver answering megabytes costs nothing more).
          if (size >= RESPONSE_BODY_CAP) {
            end();
            res.destroy();
          }
        });
        res.on('end', end);
        res.on('error', end);
        res.on('close', end);
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`timed out after ${input.timeoutMs} ms`)), input.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => {
      finish({
        ok: false,
        statusCode: null,
        error: (err.code && !err.message.includes(err.code) ? `${err.code}: ` : '') + err.message,
        responseBody: null,
      });
    });
    req.end(input.body);
  });
}
