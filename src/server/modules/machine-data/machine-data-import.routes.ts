/**
 * CSV import of test records by staff: `POST /api/v1/machine-data/import` (multipart: the records file,
 * optionally preceded by a `samples` file part; `?dryRun=true` for the preview) and the template.
 */
import multipart, { type Multipart, type MultipartFile } from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope } from '../../../shared/contract/common';
import { importQuery, importResult } from '../../../shared/contract/record-history';
import { AppError } from '../../../shared/errors';
import { z } from 'zod';
import { actorOf, languageOf } from '../audit/actor';
import { MAX_UPLOAD_BYTES, sendCsv, spoolUpload, withoutIdleDeadline, type SpooledUpload } from '../../lib/http-files';
import { importMachineData, MACHINE_IMPORT_COLUMNS } from './machine-data.import';

const can = (action: 'read' | 'create') => ({ access: { action, subject: 'MachineData' as const } });

/** The shared import answer plus how many rows were records already stored with the same content. */
export const machineImportResult = importResult.extend({ skipped: z.number().int() });

export const machineDataImportRoutes: FastifyPluginAsyncZod = async (app) => {
  if (!app.hasContentTypeParser('multipart/form-data')) {
    await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 2, fields: 5, parts: 7 } });
  }
  const tags = ['machine-data'];

  app.get('/api/v1/machine-data/template.csv', { schema: { tags }, config: can('read') }, async (_req, reply) => {
    const example = ['T-0001', 'VB2311-000123', 'shell', 'water', 2.4, 60, '', '', 'pass', '2024-05-01T08:30:00Z', 'Chen, Mei', ''];
    return sendCsv(reply, 'machine-data-template.csv', MACHINE_IMPORT_COLUMNS, [[example]]);
  });

  app.post(
    '/api/v1/machine-data/import',
    { schema: { tags, querystring: importQuery, response: { 200: envelope(machineImportResult) } }, config: can('create') },
    async (req) => {
      if (!req.isMultipart()) throw new AppError('unsupported-media-type', 'errors.unsupportedMediaType');
      // Every file part spooled as it arrives (lib/http-files.ts spoolUpload): the import starts once the
      // request has arrived, so no request deadline runs out during a long one.
      const files: { field: string; upload: SpooledUpload }[] = [];
      try {
        for await (const part of req.parts()) {
          if ((part as Multipart).type === 'file') {
            const file = part as MultipartFile;
            files.push({ field: file.fieldname, upload: await spoolUpload(file.file) });
          }
        }
        const noFile = () =>
          new AppError('invalid-argument', 'machineImport.noFile', { fields: [{ field: 'file', key: 'machineImport.noFile' }] });
        // Before any database work: a request without a file is a 400, not an empty import.
        const [first, second] = files;
        if (!first) throw noFile();
        const result = await withoutIdleDeadline(req, () =>
          importMachineData(
            app.ctx.db,
            async () => {
              // A samples part after the records file would come too late to be joined to them (as when the
              // parts were read while importing: the rule and its message stay).
              if (first.field !== 'samples') return { records: first.upload.read(), more: async () => files.length > 1 };
              if (!second) throw noFile();
              return { records: second.upload.read(), samples: first.upload.read(), more: async () => files.length > 2 };
            },
            actorOf(req),
            { dryRun: req.query.dryRun, language: languageOf(req) },
          ),
        );
        return { data: result };
      } finally {
        await Promise.all(files.map((f) => f.upload.release()));
      }
    },
  );
};
