/**
 * CSV import of test records by staff: `POST /api/v1/machine-data/import` (multipart: the records file,
 * optionally preceded by a `samples` file part; `?dryRun=true` for the preview) and the template.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope } from '../../../shared/contract/common';
import { importQuery, importResult } from '../../../shared/contract/record-history';
import { AppError } from '../../../shared/errors';
import { z } from 'zod';
import { actorOf, languageOf } from '../audit/actor';
import { digesting } from '../../lib/digest-stream';
import { ensureMultipart, sendCsv, withoutIdleDeadline, withUploads } from '../../lib/http-files';
import { importMachineData, MACHINE_IMPORT_COLUMNS } from './machine-data.import';

/** The uploaded file's name as the audit trail and the record page show it: no path, no control characters. */
function uploadName(name: string | undefined): string {
  const base = (name ?? '')
    .split(/[\\/]/)
    .pop()!
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim();
  return base.slice(0, 255) || 'upload.csv';
}

const can = (action: 'read' | 'create') => ({ access: { action, subject: 'MachineData' as const } });

/** The shared import answer plus how many rows were records already stored with the same content. */
export const machineImportResult = importResult.extend({ skipped: z.number().int() });

export const machineDataImportRoutes: FastifyPluginAsyncZod = async (app) => {
  // The records file and, before it, an optional samples file.
  await ensureMultipart(app, 2);
  const tags = ['machine-data'];

  app.get('/api/v1/machine-data/template.csv', { schema: { tags }, config: can('read') }, async (_req, reply) => {
    const example = [
      'T-0001',
      'VB2311-000123',
      'shell',
      'water',
      2.4,
      60,
      '',
      '',
      'pass',
      '2024-05-01T08:30:00Z',
      'Chen, Mei',
      'PG-01',
      20.5,
      'both',
      '',
    ];
    return sendCsv(reply, 'machine-data-template.csv', MACHINE_IMPORT_COLUMNS, [[example]]);
  });

  app.post(
    '/api/v1/machine-data/import',
    { schema: { tags, querystring: importQuery, response: { 200: envelope(machineImportResult) } }, config: can('create') },
    async (req) => {
      // Every file part spooled as it arrives, under the uploads' budget (lib/http-files.ts withUploads): the
      // import starts once the request has arrived, so no request deadline runs out during a long one.
      const result = await withUploads(app.ctx.uploads, req, async (files) => {
        const noFile = () =>
          new AppError('invalid-argument', 'machineImport.noFile', { fields: [{ field: 'file', key: 'machineImport.noFile' }] });
        // Before any database work: a request without a file is a 400, not an empty import.
        const [first, second] = files;
        if (!first) throw noFile();
        return withoutIdleDeadline(req, () =>
          importMachineData(
            app.ctx.db,
            async () => {
              // A samples part after the records file would come too late to be joined to them (as when the
              // parts were read while importing: the rule and its message stay).
              const recordsFile = first.field !== 'samples' ? first : second;
              if (!recordsFile) throw noFile();
              const read = digesting(recordsFile.upload.read());
              const opened = { records: read.bytes, fileName: uploadName(recordsFile.filename), sha256: read.sha256 };
              if (recordsFile === first) return { ...opened, more: async () => files.length > 1 };
              return { ...opened, samples: first.upload.read(), more: async () => files.length > 2 };
            },
            { ...actorOf(req), admin: req.user!.role === 'admin' },
            { dryRun: req.query.dryRun, language: languageOf(req) },
          ),
        );
      });
      if (!req.query.dryRun) app.ctx.alerts.kick();
      return { data: result };
    },
  );
};
