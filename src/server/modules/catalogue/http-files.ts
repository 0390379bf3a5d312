/** Upload and download of catalogue CSV files: multipart registration, the upload stream, CSV responses. */
import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../shared/errors';
import { csvLine, UTF8_BOM } from '../../lib/csv';

export const MAX_UPLOAD_BYTES = 200 * 1024 * 1024;

/** Registers @fastify/multipart in this plugin's scope unless an outer scope already did. */
export async function ensureMultipart(app: FastifyInstance): Promise<void> {
  if (app.hasContentTypeParser('multipart/form-data')) return;
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 5, parts: 6 } });
}

/**
 * Runs `fn` over the bytes of the uploaded file (the first file part, any field name). Whatever `fn` leaves
 * unread is drained afterwards, so that an import that stopped early still answers the request.
 */
export async function withUpload<R>(
  req: FastifyRequest,
  ns: string,
  fn: (source: AsyncIterable<Uint8Array>) => Promise<R>,
): Promise<R> {
  if (!req.isMultipart()) throw new AppError('unsupported-media-type', 'errors.unsupportedMediaType');
  const file = await req.file();
  if (!file) throw new AppError('invalid-argument', `${ns}.import.noFile`, { fields: [{ field: 'file', key: `${ns}.import.noFile` }] });
  try {
    return await fn(file.file);
  } finally {
    file.file.resume();
  }
}

/** Streams a CSV download: UTF-8 with a BOM so that Excel shows Chinese correctly, CRLF line ends. */
export function sendCsv(
  reply: FastifyReply,
  filename: string,
  header: readonly string[],
  pages: AsyncIterable<(string | number | null)[][]> | Iterable<(string | number | null)[][]>,
): FastifyReply {
  async function* body() {
    yield UTF8_BOM + csvLine(header);
    for await (const page of pages) yield page.map(csvLine).join('');
  }
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(body()));
}
