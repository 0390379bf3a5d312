/**
 * /metrics: off by default (404); with METRICS_TOKEN a wrong or missing bearer token is 401 and the right
 * one gives Prometheus text with the request durations by route pattern, the outbox gauges, report
 * generation time and ingested records. METRICS_PORT serves it on a listener of its own.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenMetrics } from '../src/server/lib/metrics';
import { issueReport } from '../src/server/modules/reports/issue';
import { buildTestApp, type TestApp } from './helpers/app';
import { postBatch, record } from './helpers/machine-data';
import { unitWithRecords } from './helpers/reports';
import { freePort } from './helpers/free-port';

const TOKEN = 'metrics-token-0123456789abcdef';

describe('/metrics off by default', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('answers 404 without METRICS_TOKEN, whatever the header', async () => {
    expect((await t.app.inject('/metrics')).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode).toBe(404);
    expect(t.app.ctx.metrics).toBeUndefined();
  });
});

describe('/metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ METRICS_TOKEN: TOKEN });
  });
  afterAll(() => t.close());

  it('refuses a missing or wrong token with 401 in the error envelope', async () => {
    const none = await t.app.inject('/metrics');
    expect(none.statusCode).toBe(401);
    expect(none.json().error.status).toBe('UNAUTHENTICATED');
    const wrong = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN.slice(0, -1)}x` } });
    expect(wrong.statusCode).toBe(401);
    const basic = await t.app.inject({ url: '/metrics', headers: { authorization: `Basic ${TOKEN}` } });
    expect(basic.statusCode).toBe(401);
  });

  it('gives every metric with its labels: routes as patterns, outbox, reports, ingestion, process', async () => {
    const u = await unitWithRecords(t, [{ testType: 'shell' }, { testType: 'seat' }]);
    await postBatch(t.app, u.bench.key, { records: [record({ serial: u.serial, testType: 'shell', testedAt: '2024-05-03T08:00:00Z' })] });
    expect(
      (await issueReport(t.app.ctx.db, { serial: u.serial, language: 'en', publicBaseUrl: t.app.ctx.config.publicBaseUrl })).status,
    ).toBe('issued');
    await t.app.inject(`/api/v1/machine-data/units/${encodeURIComponent(u.serial)}`);

    const res = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body;
    expect(text).toMatch(
      /^trc_http_request_duration_seconds_bucket\{le="[^"]+",method="POST",route="\/api\/v1\/machine-data",status_code="200"\} \d+/m,
    );
    // The route pattern, never the serial from the URL.
    expect(text).toMatch(/route="\/api\/v1\/machine-data\/units\/:serial"/);
    expect(text).not.toContain(u.serial);
    expect(text).toMatch(/^trc_machine_data_records_total\{outcome="stored"\} [1-9]\d*$/m);
    expect(text).toMatch(/^trc_machine_data_batches_total\{result="accepted"\} [1-9]\d*$/m);
    expect(text).toMatch(/^trc_report_generation_seconds_count\{language="en"\} [1-9]\d*$/m);
    expect(text).toMatch(/^trc_outbox_depth \d+$/m);
    expect(text).toMatch(/^trc_outbox_oldest_queued_seconds \d+$/m);
    expect(text).toMatch(/^trc_outbox_retrying \d+$/m);
    expect(text).toMatch(/^trc_outbox_failed_last_day \d+$/m);
    expect(text).toMatch(/^trc_outbox_up 1$/m);
    expect(text).toMatch(/^trc_process_resident_memory_bytes \d+/m);
    if (t.app.ctx.database.kind === 'postgres') {
      expect(text).toMatch(/^trc_db_pool_connections\{state="waiting"\} \d+$/m);
      expect(text).toMatch(/^trc_db_pool_connections\{state="total"\} \d+$/m);
    } else {
      expect(text).not.toContain('trc_db_pool_connections');
    }
  });
});

function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

describe('METRICS_PORT', () => {
  it('serves /metrics on its own listener (token required when set) while the main port keeps answering 404', async () => {
    const port = await freePort();
    const t = await buildTestApp({ METRICS_PORT: String(port) });
    const server = await listenMetrics(t.app.ctx.metrics!, port, '127.0.0.1');
    try {
      expect((await t.app.inject('/metrics')).statusCode).toBe(404);
      const res = await get(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      expect(res.body).toMatch(/^trc_outbox_depth \d+$/m);
      expect((await get(`http://127.0.0.1:${port}/other`)).status).toBe(404);
      // The same endpoint behind the token.
      const port2 = await freePort();
      const server2 = await listenMetrics(t.app.ctx.metrics!, port2, '127.0.0.1', TOKEN);
      try {
        expect((await get(`http://127.0.0.1:${port2}/metrics`)).status).toBe(401);
        expect((await get(`http://127.0.0.1:${port2}/metrics`, { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
      } finally {
        server2.close();
      }
    } finally {
      server.close();
      await t.close();
    }
  });
});
