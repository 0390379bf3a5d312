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
import { hashKey } from '../machines/machine-keys';
import { guardBatchBody } from './batch-body-guard';
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
 * Per key (its hash; IP without one), shared across instances through Redis when REDIS_URL is set. 600 a
 * minute is 10 batches a second: 50,000 records/s per bench at the batch limit, far above what a bench
 * produces, while a runaway retry loop is cut off.
 */
export const INGEST_RATE_LIMIT = { max: 600, timeWindow: 60_000 };

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

  app.post(
    '/api/v1/machine-data',
    {
      bodyLimit: INGEST_BODY_LIMIT,
      schema: { tags, security: [{ benchKey: [] }], body: testRecordBatch, response: { 200: ingestEnvelope } },
      config: {
        access: 'bench',
        rateLimit: {
          ...INGEST_RATE_LIMIT,
          keyGenerator: (req: FastifyRequest) => {
            const auth = req.headers.authorization;
            return auth ? `bench:${hashKey(auth).toString('base64url')}` : `bench-ip:${req.ip}`;
          },
        },
      },
      // After the rate limit (onRequest), before the body is read: a wrong key costs no parsing.
      preParsing: async (req, reply, payload) => {
        reply.header('www-authenticate', 'Bearer');
        req.bench = await authenticateBench(db, req.headers.authorization);
        reply.removeHeader('www-authenticate');
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
