/**
 * /api/v1/materials (the material catalogue), /api/v1/products/{id}/parts (a product's parts and their
 * materials), /api/v1/heats (heats and their mill certificates) and /api/v1/serial-ranges/{id}/heats (the
 * heats of a range's parts, and per-serial exceptions by CSV). Staff keep them (docs/decisions/0053).
 */
import { contentDisposition } from '../../lib/content-disposition';
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope } from '../../../shared/contract/common';
import {
  heatEnvelope,
  heatInput,
  heatListEnvelope,
  heatListQuery,
  materialEnvelope,
  materialInput,
  materialListEnvelope,
  partsInput,
  productPartsEnvelope,
  rangeHeatsEnvelope,
  rangeHeatsInput,
  UNIT_HEAT_CSV_COLUMNS,
} from '../../../shared/contract/materials';
import { AppError } from '../../../shared/errors';
import { actorOf } from '../audit/actor';
import { ensureMultipart, sendCsv, withoutIdleDeadline } from '../../lib/http-files';
import { readCsvRows } from '../../lib/csv-rows';
import { MULTIPART_ALLOWANCE } from '../../lib/upload-spool';
import { HEAT_CERTIFICATE_MAX_BYTES } from '../../../shared/contract/materials';
import * as materials from './materials.service';
import * as heats from './heats.service';
import * as rangeHeats from './range-heats.service';

type Subject = 'Material' | 'Product' | 'SerialRange';
const can = (action: 'read' | 'create' | 'update' | 'delete', subject: Subject = 'Material') => ({ access: { action, subject } });
// Any string: a malformed id is answered "not found" (404) by the service, not a 400.
const idParams = z.object({ id: z.string() });
const deleted = envelope(z.object({ id: z.string() }));

/** The uploaded file's name as stored and shown: no path, no control characters. */
function fileName(name: string | undefined): string {
  const base = (name ?? '')
    .split(/[\\/]/)
    .pop()!
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f"]/g, '')
    .trim();
  return base.slice(0, 255) || 'certificate.pdf';
}

export const materialRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.ctx.db;
  await ensureMultipart(app);

  app.get(
    '/api/v1/materials',
    { schema: { tags: ['materials'], response: { 200: materialListEnvelope } }, config: can('read') },
    async () => ({
      data: await materials.listMaterials(db),
    }),
  );
  app.post(
    '/api/v1/materials',
    { schema: { tags: ['materials'], body: materialInput, response: { 201: materialEnvelope } }, config: can('create') },
    async (req, reply) => reply.status(201).send({ data: await materials.createMaterial(db, actorOf(req), req.body) }),
  );
  app.put(
    '/api/v1/materials/:id',
    { schema: { tags: ['materials'], params: idParams, body: materialInput, response: { 200: materialEnvelope } }, config: can('update') },
    async (req) => ({ data: await materials.updateMaterial(db, actorOf(req), req.params.id, req.body) }),
  );
  app.delete(
    '/api/v1/materials/:id',
    { schema: { tags: ['materials'], params: idParams, response: { 200: deleted } }, config: can('delete') },
    async (req) => {
      await materials.deleteMaterial(db, actorOf(req), req.params.id);
      return { data: { id: req.params.id } };
    },
  );

  app.get(
    '/api/v1/products/:id/parts',
    { schema: { tags: ['products'], params: idParams, response: { 200: productPartsEnvelope } }, config: can('read', 'Product') },
    async (req) => ({ data: await materials.getParts(db, req.params.id) }),
  );
  app.put(
    '/api/v1/products/:id/parts',
    {
      schema: { tags: ['products'], params: idParams, body: partsInput, response: { 200: productPartsEnvelope } },
      config: can('update', 'Product'),
    },
    async (req) => ({ data: await materials.setParts(db, actorOf(req), req.params.id, req.body) }),
  );

  app.get(
    '/api/v1/heats',
    { schema: { tags: ['materials'], querystring: heatListQuery, response: { 200: heatListEnvelope } }, config: can('read') },
    async (req) => ({ data: await heats.listHeats(db, req.query) }),
  );
  app.get(
    '/api/v1/heats/:id',
    { schema: { tags: ['materials'], params: idParams, response: { 200: heatEnvelope } }, config: can('read') },
    async (req) => ({ data: await heats.getHeat(db, req.params.id) }),
  );
  app.post(
    '/api/v1/heats',
    { schema: { tags: ['materials'], body: heatInput, response: { 201: heatEnvelope } }, config: can('create') },
    async (req, reply) => reply.status(201).send({ data: await heats.createHeat(db, actorOf(req), req.body) }),
  );
  app.put(
    '/api/v1/heats/:id',
    { schema: { tags: ['materials'], params: idParams, body: heatInput, response: { 200: heatEnvelope } }, config: can('update') },
    async (req) => ({ data: await heats.updateHeat(db, actorOf(req), req.params.id, req.body) }),
  );
  app.delete(
    '/api/v1/heats/:id',
    { schema: { tags: ['materials'], params: idParams, response: { 200: deleted } }, config: can('delete') },
    async (req) => {
      await heats.deleteHeat(db, actorOf(req), req.params.id);
      return { data: { id: req.params.id } };
    },
  );

  // The mill certificate: multipart, field `file`. Checked as it arrives (a PDF, at most 20 MB) on its way to
  // the upload spool, then stored a piece at a time: nothing is kept of a file that fails the check.
  app.put(
    '/api/v1/heats/:id/certificate',
    { schema: { tags: ['materials'], params: idParams, response: { 200: heatEnvelope } }, config: can('update') },
    async (req) => {
      if (!req.isMultipart()) throw new AppError('unsupported-media-type', 'errors.unsupportedMediaType');
      const declared = Number(req.headers['content-length']);
      if (Number.isSafeInteger(declared) && declared > HEAT_CERTIFICATE_MAX_BYTES + MULTIPART_ALLOWANCE)
        throw new AppError('out-of-range', 'materials.certificateTooLarge', { params: { max: '20 MB' } });
      await heats.getHeat(db, req.params.id);
      const admission = app.ctx.uploads.admit(req);
      try {
        const file = await req.file();
        if (!file) throw new AppError('invalid-argument', 'materials.noFile', { fields: [{ field: 'file', key: 'materials.noFile' }] });
        const check = heats.certificateCheck();
        const spooled = await admission.spool(Readable.from(check.through(file.file)));
        return await withoutIdleDeadline(req, async () => ({
          data: await heats.storeCertificate(db, actorOf(req), req.params.id, {
            name: fileName(file.filename),
            sha256: check.sha256(),
            bytes: check.bytes(),
            read: () => spooled.read(),
          }),
        }));
      } finally {
        await admission.release();
      }
    },
  );

  app.get(
    '/api/v1/heats/:id/certificate',
    { schema: { tags: ['materials'], params: idParams }, config: can('read') },
    async (req, reply) => {
      const found = await heats.certificateOf(db, req.params.id);
      if (!found) throw new AppError('not-found', 'materials.noCertificate');
      const name = `mill-certificate-${found.heat.number.replace(/[^A-Za-z0-9._-]/g, '-')}.pdf`;
      return reply
        .type('application/pdf')
        .header('content-length', String(found.heat.file!.bytes))
        .header('content-disposition', contentDisposition('inline', name))
        .header('cache-control', 'private, no-store')
        .header('x-content-sha256', found.heat.file!.sha256)
        .send(Readable.from(found.pieces()));
    },
  );

  app.get(
    '/api/v1/serial-ranges/:id/heats',
    { schema: { tags: ['serial-ranges'], params: idParams, response: { 200: rangeHeatsEnvelope } }, config: can('read', 'SerialRange') },
    async (req) => ({ data: await rangeHeats.rangeHeatsOf(db, req.params.id) }),
  );
  app.put(
    '/api/v1/serial-ranges/:id/heats',
    {
      schema: { tags: ['serial-ranges'], params: idParams, body: rangeHeatsInput, response: { 200: rangeHeatsEnvelope } },
      config: can('update', 'SerialRange'),
    },
    async (req) => ({ data: await rangeHeats.setRangeHeats(db, actorOf(req), req.params.id, req.body) }),
  );
  app.get(
    '/api/v1/serial-ranges/:id/unit-heats.csv',
    { schema: { tags: ['serial-ranges'], params: idParams }, config: can('read', 'SerialRange') },
    async (req, reply) => sendCsv(reply, 'unit-heats.csv', UNIT_HEAT_CSV_COLUMNS, [await rangeHeats.unitHeatRows(db, req.params.id)]),
  );
  app.post(
    '/api/v1/serial-ranges/:id/unit-heats',
    {
      schema: {
        tags: ['serial-ranges'],
        params: idParams,
        response: { 200: envelope(z.object({ stored: z.number().int(), removed: z.number().int() })) },
      },
      config: can('update', 'SerialRange'),
    },
    async (req) => {
      if (!req.isMultipart()) throw new AppError('unsupported-media-type', 'errors.unsupportedMediaType');
      const file = await req.file();
      if (!file) throw new AppError('invalid-argument', 'materials.noFile', { fields: [{ field: 'file', key: 'materials.noFile' }] });
      const read = await readCsvRows(file.file, {
        keys: 'orders.import',
        columns: UNIT_HEAT_CSV_COLUMNS,
        required: UNIT_HEAT_CSV_COLUMNS,
        maxRows: 20000,
      });
      if (read.failures.length)
        throw new AppError('invalid-argument', 'materials.unitHeatsRefused', {
          params: { count: read.failures.length },
          fields: read.failures.map((f) => ({
            field: f.field ? `rows.${f.row}.${f.field}` : `rows.${f.row}`,
            key: f.key,
            params: f.params,
          })),
        });
      const rows = read.rows.map(({ row, input }) => ({ row, serial: input.serial ?? '', part: input.part ?? '', heat: input.heat ?? '' }));
      return { data: await rangeHeats.importUnitHeats(db, actorOf(req), req.params.id, rows) };
    },
  );
};
