/** Small measuring helpers shared by the catalogue benchmark. */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
}

/** p50 and p99 of `n` sequential runs of `fn`, in ms. */
export async function timeMany(n: number, fn: (i: number) => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  const t: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = performance.now();
    await fn(i);
    t.push(performance.now() - s);
  }
  t.sort((a, b) => a - b);
  return { p50: percentile(t, 50), p99: percentile(t, 99) };
}

export const ms = (x: number) => `${x.toFixed(x < 10 ? 2 : 1)} ms`;

export interface LoadResult {
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
}

const CLIENT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'load-client.ts');

/** Runs the load client in a child process (its own core, not the server's event loop). */
export function load(spec: {
  url: string;
  bodies: string[];
  bodiesFile?: string;
  seconds: number;
  concurrency?: number;
  rate?: number;
  /** GET requests: each of `bodies` is then a path (with its query) on `url`'s host, asked in turn */
  get?: boolean;
}): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', CLIENT, JSON.stringify(spec)],
      { timeout: (spec.seconds + 60) * 1000 },
      (err, stdout) => {
        if (err) reject(err);
        else resolve(JSON.parse(stdout.trim().split('\n').pop()!) as LoadResult);
      },
    );
  });
}

/** Samples this process's RSS while `fn` runs; returns its result and the peak, in MB. */
export async function withPeakRss<T>(fn: () => Promise<T>): Promise<{ result: T; peakMb: number; baseMb: number }> {
  const baseMb = process.memoryUsage().rss / 2 ** 20;
  let peak = baseMb;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss / 2 ** 20);
  }, 20);
  try {
    const result = await fn();
    peak = Math.max(peak, process.memoryUsage().rss / 2 ** 20);
    return { result, peakMb: peak, baseMb };
  } finally {
    clearInterval(timer);
  }
}
