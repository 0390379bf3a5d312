/** Upload and download of catalogue CSV files: multipart registration, the upload stream, CSV responses. */
import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors';
import { csvLine, UTF8_BOM } from './csv';

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
export async function withUpload<R>(req: FastifyRequest, ns: string, fn: (source: AsyncIterable<Uint8Array>) => Promise<R>): Promise<R> {
  if (!req.isMultipart()) throw new AppError('unsupported-media-type', 'errors.unsupportedMediaType');
  const file = await req.file();
  if (!file) throw new AppError('invalid-argument', `${ns}.import.noFile`, { fields: [{ field: 'file', key: `${ns}.import.noFile` }] });
  try {
    return await fn(file.file);
  } finally {
    file.file.resume();
  }
}

/**
 * Streams a CSV download: UTF-8 with a BOM so that Excel shows Chinese correctly, CRLF line ends. The first
 * page is read before the headers go out, so a failing query is still answered with an error envelope.
 */
export async function sendCsv(
  reply: FastifyReply,
  filename: string,
  header: readonly string[],
  pages: AsyncIterable<Row[]> | Iterable<Row[]>,
): Promise<FastifyReply> {
  const it = Symbol.asyncIterator in pages ? pages[Symbol.asyncIterator]() : toAsync(pages[Symbol.iterator]());
  const first = await it.next();
  async function* body() {
    yield UTF8_BOM + csvLine(header);
    if (first.done) return;
    yield first.value.map(csvLine).join('');
    for (let next = await it.next(); !next.done; next = await it.next()) yield next.value.map(csvLine).join('');
  }
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(body()));
}

type Row = (string | number | null)[];

function toAsync<T>(it: Iterator<T>): AsyncIterator<T> {
  return { next: async () => it.next() };
}
