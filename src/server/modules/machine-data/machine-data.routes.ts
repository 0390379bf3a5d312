/**
 * /api/v1/machine-data: a bench posts batches with its key (access 'bench': no session, no CSRF rule, the
 * key checked before the body is read); staff and admins list, export and read records.
 */
import { countIngest } from '../../lib/metrics';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ingestEnvelope,
  MAX_BATCH_RECORDS,
  testRecordBatch,
  testRecordDetailEnvelope,
  testRecordListEnvelope,
  testRecordListQuery,
  unitHistoryEnvelope,
  type TestRecord,
} from '../../../shared/contract/machine-data';
import { AppError, ERROR_CODES, statusName } from '../../../shared/errors';
import { translate } from '../../../shared/i18n/index';
import { fieldError } from '../../lib/error-handler';
import { requestLanguage } from '../../lib/request-language';
import { sendCsv } from '../../lib/http-files';
import { guardBatchBody } from './batch-body-guard';
import { addressKey } from '../../lib/client-key';
import { createCounterStore } from '../../lib/counters';
import { authenticateBench, ingestBatch, type Bench, type Refusal } from './machine-data.ingest';
import { recordPages } from './machine-data.list';
import * as service from './machine-data.service';

/**
 * 64 MiB: a full batch of 5,000 records without samples is about 2 MB of JSON; with samples, one record at
 * 10,000 points is about 300 KB, so this admits a full batch with ~200 points each, or ~200 records at the
 * sample limit. A larger body is a 413 before it is parsed; so is one with more records, a larger record or
 * more sample points than a batch holds, as soon as the bytes show it (batch-body-guard.ts).
 */
export const INGEST_BODY_LIMIT = 64 * 1024 * 1024;

/**
 * Per verified bench, shared across instances through Redis when REDIS_URL is set. 600 a minute is 10
 * batches a second: 50,000 records/s per bench at the batch limit, far above what a bench produces, while
 * a runaway retry loop is cut off. Counted after the key is verified, on the bench it names, so that no
 * spelling of the header (`bearer`, `BEARER`, two spaces, a tab) starts a fresh count
 * (docs/decisions/0021-abuse-limits.md). Mutable only so that a test can reach it in a few requests.
 */
export const INGEST_RATE_LIMIT = { max: 600, timeWindow: 60_000 };

/**
 * Requests whose key is missing, malformed, unknown or disabled, per client address: a misconfigured bench
 * retrying is told 401 for a while, then 429; a script trying keys cannot make each guess a bucket of its
 * own. A valid key is never refused for its address's failures.
 */
export const INGEST_FAILURE_LIMIT = { max: 30, timeWindow: 60_000 };

/** `limit` names the limit in the message (a key of `limits.hit`, lib/limit-wait.ts). */
function tooManyRequests(reply: FastifyReply, ttlMs: number, limit: 'benchKeyFailures' | 'benchBatches'): AppError {
  const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
  reply.header('retry-after', String(seconds));
  return new AppError('resource-exhausted', 'errors.tooManyRequests', { params: { seconds, limit } });
}

const read = { access: { action: 'read' as const, subject: 'MachineData' as const } };

/** The CSV export's columns: the record's fields, then where it came from and what it matched. */
const EXPORT_COLUMNS = [
  'recordId',
  'serial',
  'testType',
  'medium',
  'testPressure',
  'holdingSeconds',
  'leakageValue',
  'leakageUnit',
  'result',
  'testedAt',
  'operator',
  'instrumentId',
  'fluidTemperature',
  'side',
  'sampleCount',
  'machineName',
  'productName',
  'receivedAt',
] as const satisfies readonly (keyof TestRecord)[];

declare module 'fastify' {
  interface FastifyRequest {
    bench: Bench | null;
  }
}

/** The error envelope with `records`: every bad record of a refused batch (docs/decisions/0003). */
function refuse(req: FastifyRequest, reply: FastifyReply, r: Refusal) {
  const records = r.records.map((p) => {
    const f = fieldError(req, p.field, p.key, p.params);
    return {
      index: p.index,
      ...(p.recordId !== undefined ? { recordId: p.recordId } : {}),
      field: f.field,
      key: f.key,
      reason: f.message,
      ...(f.params ? { params: f.params } : {}),
    };
  });
  const message = translate(requestLanguage(req), r.key, r.params);
  return reply
    .status(ERROR_CODES[r.code])
    .type('application/json; charset=utf-8')
    .send({ error: { status: statusName(r.code), message, key: r.key, params: r.params, records } });
}

export const machineDataRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.ctx.db;
  const tags = ['machine-data'];
  app.decorateRequest('bench', null);
  const counters = createCounterStore(app.ctx.redis);

  app.post(
    '/api/v1/machine-data',
    {
      bodyLimit: INGEST_BODY_LIMIT,
      schema: { tags, security: [{ benchKey: [] }], body: testRecordBatch, response: { 200: ingestEnvelope } },
      config: { access: 'bench' },
      // Before the body is read: a wrong key costs no parsing, and neither does a bench over its limit.
      preParsing: async (req, reply, payload) => {
        reply.header('www-authenticate', 'Bearer');
        let bench: Bench;
        try {
          bench = await authenticateBench(db, req.headers.authorization);
        } catch (err) {
          if (!(err instanceof AppError) || err.code !== 'unauthenticated') throw err;
          const failures = await counters.hit(`bench-fail:${addressKey(req.ip)}`, INGEST_FAILURE_LIMIT.timeWindow);
          if (failures.count > INGEST_FAILURE_LIMIT.max) {
            reply.removeHeader('www-authenticate');
            throw tooManyRequests(reply, failures.ttlMs, 'benchKeyFailures');
          }
          throw err;
        }
        reply.removeHeader('www-authenticate');
        const used = await counters.hit(`bench:${bench.id}`, INGEST_RATE_LIMIT.timeWindow);
        if (used.count > INGEST_RATE_LIMIT.max) throw tooManyRequests(reply, used.ttlMs, 'benchBatches');
        req.bench = bench;
        return guardBatchBody(payload, () => reply.header('connection', 'close'));
      },
    },
    async (req, reply) => {
      const { records } = req.body;
      if (records.length > MAX_BATCH_RECORDS) {
        throw new AppError('out-of-range', 'machineData.tooManyRecords', { params: { max: MAX_BATCH_RECORDS } });
      }
      const outcome = await ingestBatch(db, req.bench!, records);
      countIngest(outcome.ok ? outcome.result : null);
      if (!outcome.ok) return refuse(req, reply, outcome.refusal);
      // After the commit: the alerts the records raise (a disagreement above all) are raised now.
      app.ctx.alerts.kick();
      return { data: outcome.result };
    },
  );

  app.get(
    '/api/v1/machine-data',
    { schema: { tags, querystring: testRecordListQuery, response: { 200: testRecordListEnvelope } }, config: read },
    async (req) => ({ data: await service.listTestRecords(db, req.query) }),
  );

  app.get('/api/v1/machine-data/export.csv', { schema: { tags, querystring: testRecordListQuery }, config: read }, async (req, reply) => {
    const rows = async function* () {
      for await (const page of recordPages(db, req.query)) yield page.map((r) => EXPORT_COLUMNS.map((c) => r[c]));
    };
    return sendCsv(reply, 'machine-data.csv', EXPORT_COLUMNS, rows());
  });

  app.get(
    '/api/v1/machine-data/units/:serial',
    { schema: { tags, params: z.object({ serial: z.string().max(300) }), response: { 200: unitHistoryEnvelope } }, config: read },
    async (req) => ({ data: await service.unitHistory(db, req.params.serial) }),
  );

  app.get(
    '/api/v1/machine-data/:id',
    { schema: { tags, params: z.object({ id: z.string() }), response: { 200: testRecordDetailEnvelope } }, config: read },
    async (req) => ({ data: await service.getTestRecord(db, req.params.id) }),
  );
};
