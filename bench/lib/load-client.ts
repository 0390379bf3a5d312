/**
 * HTTP load generator, run as a child process so that it does not share the server's event loop.
 * argv: JSON { url, bodies, bodiesFile?, seconds, concurrency?, rate?, get? } (bodiesFile: one body a line, for
 * sets larger than a command-line argument may hold; get: GET requests, each of `bodies` a path on url's host). With `rate` it is open-loop (requests are sent on a
 * fixed schedule and latency counts from the scheduled time, so a slow server cannot hide its queue);
 * otherwise `concurrency` requests are kept in flight. Prints one JSON line: { requests, errors, rps, p50, p99 }.
 */
import fs from 'node:fs';
import http from 'node:http';

interface Spec {
  url: string;
  /** request bodies, sent in turn */
  bodies: string[];
  bodiesFile?: string;
  seconds: number;
  concurrency?: number;
  rate?: number;
  get?: boolean;
}

const spec = JSON.parse(process.argv[2] ?? '{}') as Spec;
const url = new URL(spec.url);
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const payloads = (spec.bodiesFile ? fs.readFileSync(spec.bodiesFile, 'utf8').split('\n').filter(Boolean) : spec.bodies).map((b) =>
  Buffer.from(b),
);
let next = 0;
const latencies: number[] = [];
let errors = 0;

function once(scheduledAt = performance.now()): Promise<void> {
  const payload = payloads[next++ % payloads.length]!;
  return new Promise((resolve) => {
    const req = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: spec.get ? payload.toString() : url.pathname,
        method: spec.get ? 'GET' : 'POST',
        headers: spec.get ? {} : { 'content-type': 'application/json', 'content-length': payload.length },
      },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', () => {
          if (res.statusCode !== 200 && res.statusCode !== 404) errors++;
          latencies.push(performance.now() - scheduledAt);
          resolve();
        });
      },
    );
    req.on('error', () => {
      errors++;
      resolve();
    });
    req.end(spec.get ? undefined : payload);
  });
}

const started = performance.now();
const until = started + spec.seconds * 1000;
if (spec.rate) {
  const interval = 1000 / spec.rate;
  const inflight = new Set<Promise<void>>();
  for (let i = 0; ; i++) {
    const at = started + i * interval;
    if (at >= until) break;
    const wait = at - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    // Sent up to a millisecond early (a shorter timer is not worth its wake-up): latency then counts from the
    // send, not from the scheduled time still ahead (a p50 below zero otherwise).
    const p: Promise<void> = once(Math.min(at, performance.now())).then(() => {
      inflight.delete(p);
    });
    inflight.add(p);
  }
  await Promise.all(inflight);
} else {
  await Promise.all(
    Array.from({ length: spec.concurrency ?? 32 }, async () => {
      while (performance.now() < until) await once();
    }),
  );
}
const seconds = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((latencies.length * p) / 100))] ?? NaN;
process.stdout.write(
  JSON.stringify({ requests: latencies.length, errors, rps: latencies.length / seconds, p50: pct(50), p99: pct(99) }) + '\n',
);
agent.destroy();
