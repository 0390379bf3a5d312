/**
 * The public /search page as a visitor's browser receives it (docs/product.md §7): the production
 * server started as `npm start` does (building dist/web when it is stale), Debian's Chromium (never a
 * downloaded one) with the flags of playwright.config.ts, a fresh profile per load.
 *
 * - Bytes over the wire: the sum of CDP Network.loadingFinished encodedDataLength of every script
 *   (headers included, compressed as sent: the server sends brotli to Chromium), for /search and /login.
 *   Target: /search under 150 KB of JavaScript; no staff screen's code there (checked by chunk name).
 * - Largest Contentful Paint of /search under Chrome DevTools' "Slow 4G" preset (562.5 ms round trip,
 *   1.44 Mbit/s down, 675 kbit/s up) and 4x CPU throttling: the median of RUNS cold loads. Target < 2.5 s.
 *   Also when the serial field is usable.
 *
 * WEB_PAGE_URL=http://host:port measures a server already running instead of starting one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from '@playwright/test';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.WEB_PAGE_RUNS ?? 5);
const TARGET_JS = 150 * 1024;
const TARGET_LCP_MS = 2500;

/** Chrome DevTools' "Slow 4G" preset (front_end/core/sdk/NetworkManager.ts): throughputs in bytes/s. */
const SLOW_4G = {
  offline: false,
  latency: 150 * 3.75,
  downloadThroughput: ((1.6 * 1000 * 1000) / 8) * 0.9,
  uploadThroughput: ((750 * 1000) / 8) * 0.9,
};
const CPU_SLOWDOWN = 4;

/** Chunks whose code is the staff back office (as named by Rollup after their first module). */
const STAFF_CODE =
  /\/(default-layout|customizer|vertical-nav|horizontal-nav|user-menu|staff|account|dashboard|products|serials|machine-data|machines|searches|access-control|data-table|router|settings-page|audit|quality)[-.]/;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

async function startServer(dataDir: string): Promise<{ base: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (Date.now() - started > 300_000) throw new Error('server not ready within 300 s');
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const ok = await fetch(`${base}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return { base, child };
    await new Promise((r) => setTimeout(r, 200));
  }
}

interface Load {
  /** bytes: over the wire, headers included; body: the compressed body alone */
  scripts: { url: string; bytes: number; body: number }[];
  allBytes: number;
  lcp: number | null;
  usable: number | null;
}

async function load(browser: Browser, url: string, throttle: boolean): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
  await context.addInitScript(() => {
    const w = window as unknown as { __lcp: number | null };
    w.__lcp = null;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__lcp = e.startTime;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (throttle) {
    await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  }
  const types = new Map<string, { type: string; url: string; headers: number }>();
  const sizes = new Map<string, number>();
  // At responseReceived, encodedDataLength is what has arrived so far: the status line and headers.
  cdp.on('Network.responseReceived', (e) =>
    types.set(e.requestId, { type: e.type, url: e.response.url, headers: e.response.encodedDataLength }),
  );
  cdp.on('Network.loadingFinished', (e) => sizes.set(e.requestId, e.encodedDataLength));
  const started = Date.now();
  await page.goto(url, { waitUntil: 'load' });
  const field = await page
    .locator('#serial-input')
    .waitFor({ timeout: 60_000 })
    .then(
      () => Date.now() - started,
      () => null,
    );
  await page.waitForLoadState('networkidle');
  const lcp = await page.evaluate(() => (window as unknown as { __lcp: number | null }).__lcp);
  await context.close();
  const scripts = [...sizes].flatMap(([id, bytes]) => {
    const t = types.get(id);
    return t?.type === 'Script' ? [{ url: t.url, bytes, body: bytes - t.headers }] : [];
  });
  return { scripts, allBytes: [...sizes.values()].reduce((a, b) => a + b, 0), lcp, usable: url.endsWith('/search') ? field : null };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export default async function webPage(log: (line: string) => void): Promise<void> {
  const { CHROMIUM_ARGS } = await import('../playwright.config');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-bench-web-'));
  const given = process.env.WEB_PAGE_URL?.replace(/\/+$/, '');
  const { base, child } = given ? { base: given, child: null } : await startServer(dataDir);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    for (const route of ['/search', '/login']) {
      const l = await load(browser, `${base}${route}`, false);
      const js = l.scripts.reduce((a, s) => a + s.bytes, 0);
      const body = l.scripts.reduce((a, s) => a + s.body, 0);
      const staff = l.scripts.filter((s) => STAFF_CODE.test(new URL(s.url).pathname));
      // The budget (docs/product.md §7) is compressed JavaScript; the response headers are shown beside it.
      const verdict =
        route === '/search' ? `; target < ${kb(TARGET_JS)} of compressed JavaScript: ${body < TARGET_JS ? 'met' : 'MISSED'}` : '';
      log(
        `${route}: ${kb(body)} of compressed JavaScript in ${l.scripts.length} files, ${kb(js)} over the wire with their headers ` +
          `(${kb(l.allBytes)} for the whole page)${verdict}`,
      );
      const biggest = [...l.scripts].sort((a, b) => b.bytes - a.bytes).slice(0, 5);
      log(`  largest: ${biggest.map((s) => `${path.basename(new URL(s.url).pathname)} ${kb(s.bytes)}`).join(', ')}`);
      if (route === '/search') log(`  staff screens' code: ${staff.length ? staff.map((s) => s.url).join(', ') : 'none'}`);
    }
    const lcps: number[] = [];
    const usable: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const l = await load(browser, `${base}/search`, true);
      if (l.lcp !== null) lcps.push(l.lcp);
      if (l.usable !== null) usable.push(l.usable);
    }
    if (lcps.length === 0) throw new Error('no largest-contentful-paint entry');
    const lcp = median(lcps);
    log(
      `/search LCP under Slow 4G and ${CPU_SLOWDOWN}x CPU: median ${(lcp / 1000).toFixed(2)} s of ${lcps.length} cold loads ` +
        `(min ${(Math.min(...lcps) / 1000).toFixed(2)}, max ${(Math.max(...lcps) / 1000).toFixed(2)}); target < ${TARGET_LCP_MS / 1000} s: ${lcp < TARGET_LCP_MS ? 'met' : 'MISSED'}`,
    );
    if (usable.length) log(`  serial field usable after ${(median(usable) / 1000).toFixed(2)} s (median, from navigation start)`);
  } finally {
    await browser.close();
    if (child) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
