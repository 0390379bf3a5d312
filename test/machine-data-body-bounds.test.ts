// @engine-independent: a batch's body is bounded while it is read, before any SQL; the full batch goes in by the ingestion the other tests run on both engines (scripts/test.mjs leaves it out of the PostgreSQL pass).
/**
 * A bench's batch is bounded while it is read, before it is parsed (batch-body-guard.ts): a hostile body of
 * empty records is refused after a few kilobytes, a record too large or too many sample points are
 * refused, and a full batch of 5,000 records with samples still goes in.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BATCH_RECORDS } from '../src/shared/contract/machine-data';
import { BatchBodyGuard, MAX_BATCH_SAMPLES, MAX_RECORD_BYTES } from '../src/server/modules/machine-data/batch-body-guard';
import { buildTestApp, type TestApp } from './helpers/app';
import { adminCookie, createBench, postBatch, record, records } from './helpers/machine-data';

let t: TestApp;
let bench: { key: string };
beforeAll(async () => {
  t = await buildTestApp();
  bench = await createBench(t.app, await adminCookie(t));
});
afterAll(() => t.close());

/** How many bytes a guard lets through before it refuses `chunks`, and its refusal's message key. */
async function bytesBeforeRefusal(chunks: Iterable<Buffer>): Promise<{ passed: number; key: string | null }> {
  const guard = new BatchBodyGuard();
  let passed = 0;
  guard.on('data', (b: Buffer) => (passed += b.length));
  guard.on('error', () => undefined); // the write callback below receives it
  try {
    for (const chunk of chunks) {
      await new Promise<void>((resolve, reject) => guard.write(chunk, (err) => (err ? reject(err) : resolve())));
    }
    return { passed, key: null };
  } catch (err) {
    return { passed, key: (err as { messageKey?: string }).messageKey ?? String(err) };
  }
}

function* emptyRecords(totalBytes: number): Generator<Buffer> {
  yield Buffer.from('{"records":[{}');
  const chunk = Buffer.from(',{}'.repeat(20_000));
  for (let sent = 0; sent < totalBytes; sent += chunk.length) yield chunk;
}

describe('the batch body guard', () => {
  it('refuses a 63 MB body of empty records after reading a few kilobytes of it', async () => {
    const r = await bytesBeforeRefusal(emptyRecords(63 * 1024 * 1024));
    expect(r.key).toBe('machineData.tooManyRecords');
    expect(r.passed).toBeLessThan(64 * 1024);
  });

  it('refuses a record larger than the largest real one, even when it is one long string', async () => {
    const big = Buffer.from(`{"records":[{"operator":"${'x'.repeat(MAX_RECORD_BYTES)}"}]}`);
    expect((await bytesBeforeRefusal([big])).key).toBe('limits.recordTooLarge');
    const nested = Buffer.from(`{"records":[{"samples":[${'{},'.repeat(MAX_RECORD_BYTES / 3)}{}]}]}`);
    expect((await bytesBeforeRefusal([nested])).key).toBe('limits.recordTooLarge');
  });

  it('refuses more sample points than a batch holds, spread over records each small enough', async () => {
    const perRecord = 100_000;
    function* spread(): Generator<Buffer> {
      yield Buffer.from('{"records":[');
      const one = Buffer.from(`{"samples":[${'{},'.repeat(perRecord - 1)}{}]},`);
      for (let i = 0; i <= MAX_BATCH_SAMPLES / perRecord; i++) yield one;
    }
    expect((await bytesBeforeRefusal(spread())).key).toBe('limits.batchTooComplex');
  });

  it('passes a body that nests nothing and names few records unchanged, strings with brackets included', async () => {
    const text = '{"records":[{"operator":"a, ] } [ \\" {"},{"operator":"b"}]}';
    const guard = new BatchBodyGuard();
    const out = await new Promise<string>((resolve, reject) => {
      let s = '';
      guard.on('data', (b: Buffer) => (s += b.toString()));
      guard.on('end', () => resolve(s));
      guard.on('error', reject);
      guard.end(Buffer.from(text));
    });
    expect(out).toBe(text);
  });
});

describe('POST /api/v1/machine-data bounds', () => {
  it('answers a hostile body of empty records over HTTP with 413, keeps memory, and then answers /healthz', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const total = 63 * 1024 * 1024;
    const rssBefore = process.memoryUsage().rss;
    const answer = await new Promise<{ status: number; body: string; connection?: string }>((resolve, reject) => {
      const req = http.request({
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/api/v1/machine-data',
        headers: { authorization: `Bearer ${bench.key}`, 'content-type': 'application/json', 'content-length': String(total) },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body, connection: res.headers.connection }));
      });
      req.on('error', reject);
      const head = Buffer.from('{"records":[{}');
      const chunk = Buffer.from(',{}'.repeat(21_845));
      const body = Readable.from(
        (function* () {
          yield head;
          let sent = head.length;
          while (sent + chunk.length <= total) {
            yield chunk;
            sent += chunk.length;
          }
          yield Buffer.alloc(total - sent, 0x20);
        })(),
      );
      body.pipe(req);
      body.on('error', reject);
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).error).toMatchObject({ status: 'OUT_OF_RANGE', key: 'machineData.tooManyRecords' });
    expect(answer.connection).toBe('close');
    // Parsed whole, such a body takes gigabytes; refused while read, it costs what was read.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(300 * 1024 * 1024);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
  }, 60_000);

  it('refuses a record too large with 413 in the request language', async () => {
    const res = await postBatch(
      t.app,
      bench.key,
      { records: [record({ operator: 'x'.repeat(MAX_RECORD_BYTES) })] },
      { 'accept-language': 'zh-TW' },
    );
    expect(res.statusCode).toBe(413);
    expect(res.json().error.key).toBe('limits.recordTooLarge');
    expect(res.json().error.message).toMatch(/KB/);
    expect(res.json().error.message).toMatch(/紀錄/);
  });

  it('still stores a full batch of 5,000 records with samples', async () => {
    const samples = Array.from({ length: 30 }, (_, i) => ({ t: i * 2, p: 2.4 }));
    const res = await postBatch(t.app, bench.key, { records: records(MAX_BATCH_RECORDS, () => ({ samples })) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.stored).toBe(MAX_BATCH_RECORDS);
  }, 120_000);
});
