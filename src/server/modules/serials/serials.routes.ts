/** /api/v1/serial-ranges: list, add, read, update, delete, history, CSV template, export, import and QR labels. */
import { contentDisposition } from '../../lib/content-disposition';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, listEnvelope } from '../../../shared/contract/common';
import { historyEntry, importQuery, importResult } from '../../../shared/contract/record-history';
import { SERIAL_RANGE_CSV_COLUMNS, serialRange, serialRangeInput, serialRangeListQuery } from '../../../shared/contract/serials';
import { actorOf, languageOf, successMessage } from '../audit/actor';
import { ensureMultipart, sendCsv, withUpload } from '../../lib/http-files';
import { labelQuery } from '../../../shared/contract/labels';
import { isLocalAddress } from '../../../shared/public-address';
import { AppError } from '../../../shared/errors';
import { createLabelsDocument, writeLabels } from './labels-pdf';
import { labelsDeadlineMs, planLabels } from './labels.service';
import { importRanges } from './serials.import';
import { rangePages } from './serials.repo';
import * as service from './serials.service';

const can = (action: 'read' | 'create' | 'update' | 'delete') => ({ access: { action, subject: 'SerialRange' as const } });
// Any string: a malformed id is a 404 from the service, not a 400.
const idParams = z.object({ id: z.string() });
/** Per address: a label file is up to 10,000 labels of work; a person prints a few at a time. */
export const LABELS_RATE_LIMIT = { max: 10, timeWindow: 60_000 };
/** Label files drawn at once by this instance; beyond it a request is told to try again (429). */
const LABELS_AT_ONCE = 2;

const changed = envelope(serialRange).extend({ message: z.string(), messageKey: z.string() });
const deleted = envelope(z.object({ id: z.string() })).extend({ message: z.string(), messageKey: z.string() });

export const serialRoutes: FastifyPluginAsyncZod = async (app) => {
  await ensureMultipart(app);
  const db = app.ctx.db;
  const tags = ['serial-ranges'];

  app.get(
    '/api/v1/serial-ranges',
    { schema: { tags, querystring: serialRangeListQuery, response: { 200: listEnvelope(serialRange) } }, config: can('read') },
    async (req) => ({ data: await service.listRanges(db, req.query) }),
  );

  app.post(
    '/api/v1/serial-ranges',
    { schema: { tags, body: serialRangeInput, response: { 201: changed } }, config: can('create') },
    async (req, reply) => {
      const created = await service.createRange(db, actorOf(req), req.body);
      return reply.status(201).send({ data: created, ...successMessage(req, 'serials.added') });
    },
  );

  app.get(
    '/api/v1/serial-ranges/export.csv',
    { schema: { tags, querystring: serialRangeListQuery }, config: can('read') },
    async (req, reply) => {
      const rows = async function* () {
        for await (const page of rangePages(db, req.query)) {
          yield page.map((s) => [s.productName, s.startSerial, s.endSerial, s.totalUnits, s.productionDate, s.bodyMaterial ?? '']);
        }
      };
      return sendCsv(reply, 'serial-ranges.csv', SERIAL_RANGE_CSV_COLUMNS, rows());
    },
  );

  app.get('/api/v1/serial-ranges/template.csv', { schema: { tags }, config: can('read') }, async (_req, reply) => {
    const example = ['Gate Valve DN50', 'VB2311-000001', 'VB2311-000500', 500, '2023-11-15', 'wcb'];
    return sendCsv(reply, 'serial-ranges-template.csv', SERIAL_RANGE_CSV_COLUMNS, [[example]]);
  });

  app.post(
    '/api/v1/serial-ranges/import',
    { schema: { tags, querystring: importQuery, response: { 200: envelope(importResult) } }, config: can('create') },
    async (req) => {
      const result = await withUpload(app.ctx.uploads, req, 'serials', (source) =>
        importRanges(db, source, actorOf(req), { dryRun: req.query.dryRun, language: languageOf(req) }),
      );
      return { data: result };
    },
  );

  app.get(
    '/api/v1/serial-ranges/:id',
    { schema: { tags, params: idParams, response: { 200: envelope(serialRange) } }, config: can('read') },
    async (req) => ({ data: await service.getRange(db, req.params.id) }),
  );

  app.put(
    '/api/v1/serial-ranges/:id',
    { schema: { tags, params: idParams, body: serialRangeInput, response: { 200: changed } }, config: can('update') },
    async (req) => {
      const updated = await service.updateRange(db, actorOf(req), req.params.id, req.body);
      return { data: updated, ...successMessage(req, 'serials.updated') };
    },
  );

  app.delete(
    '/api/v1/serial-ranges/:id',
    { schema: { tags, params: idParams, response: { 200: deleted } }, config: can('delete') },
    async (req) => {
      await service.deleteRange(db, actorOf(req), req.params.id);
      return { data: { id: req.params.id }, ...successMessage(req, 'serials.deleted') };
    },
  );

  let drawingLabels = 0;
  const labelsDeadline = app.ctx.config.labels;
  app.get(
    '/api/v1/serial-ranges/:id/labels.pdf',
    {
      schema: { tags, params: idParams, querystring: labelQuery },
      config: { ...can('read'), rateLimit: LABELS_RATE_LIMIT },
    },
    async (req, reply) => {
      // Labels go onto valves for good: while their QR codes open this machine only, each says it is a test
      // (the dialog asks staff to confirm first).
      const plan = await planLabels(db, req.params.id, req.query, {
        publicBaseUrl: app.ctx.config.publicBaseUrl,
        language: languageOf(req),
        testMark: isLocalAddress(app.ctx.config.publicBaseUrl),
      });
      const doc = await createLabelsDocument(plan);
      if (drawingLabels >= LABELS_AT_ONCE) throw new AppError('resource-exhausted', 'labels.busy');
      drawingLabels++;
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        drawingLabels--;
      };
      let left = false;
      // A client that reads too slowly (a few KB now and then never trips the idle deadline) would hold the
      // slot for as long as it likes: by the deadline for the labels asked for, its response is cut and the
      // slot freed at once (docs/decisions/0041-labels-deadline.md).
      const labels = Number(plan.to - plan.from) + 1;
      const deadline = setTimeout(
        () => {
          left = true;
          release();
          req.log.warn({ labels }, 'labels PDF not read by its deadline: response cut');
          reply.raw.destroy();
        },
        labelsDeadlineMs(labels, labelsDeadline),
      );
      deadline.unref();
      reply.raw.once('close', () => {
        left = true;
        clearTimeout(deadline);
      });
      // Drawn while the response streams; the slot is released however it ends.
      writeLabels(doc, plan, () => left)
        .catch((err: unknown) => doc.destroy(err as Error))
        .finally(release);
      return reply
        .type('application/pdf')
        .header('content-disposition', contentDisposition('attachment', plan.filename))
        .header('cache-control', 'no-store')
        .send(doc);
    },
  );

  app.get(
    '/api/v1/serial-ranges/:id/history',
    { schema: { tags, params: idParams, response: { 200: envelope(z.array(historyEntry)) } }, config: can('read') },
    async (req) => ({ data: await service.rangeHistory(db, req.params.id) }),
  );
};
