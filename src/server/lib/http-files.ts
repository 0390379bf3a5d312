/** Upload and download of catalogue CSV files: multipart registration, the upload stream, CSV responses. */
import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors';
import { contentDisposition } from './content-disposition';
import { csvLine, UTF8_BOM } from './csv';
import type { SpooledUpload, UploadSpool } from './upload-spool';

/**
 * Registers @fastify/multipart in this plugin's scope unless an outer scope already did. The parser's file
 * limit is one byte over UPLOAD_FILE_LIMIT: the spool's meter (lib/upload-spool.ts) cuts a file at the
 * limit itself, with a message that names it.
 */
export async function ensureMultipart(app: FastifyInstance, files = 1): Promise<void> {
  if (app.hasContentTypeParser('multipart/form-data')) return;
  const fileSize = app.ctx.config.uploads.fileBytes + 1;
  await app.register(multipart, { limits: { fileSize, files, fields: 5, parts: 5 + files } });
}

/**
 * Runs `work` with the connection's idle deadline (IDLE_TIMEOUT_MS) lifted: an import answers only when its
 * one transaction ends, and nothing is sent meanwhile. For staff routes whose request has fully arrived.
 */
export async function withoutIdleDeadline<R>(req: FastifyRequest, work: () => Promise<R>): Promise<R> {
  const socket = req.raw.socket as (typeof req.raw.socket & { timeout?: number }) | undefined;
  // A request injected in-process (tests, app.inject) has no real socket and no deadline to lift.
  if (typeof socket?.setTimeout !== 'function') return work();
  const idle = socket.timeout ?? 0;
  socket.setTimeout(0);
  try {
    return await work();
  } finally {
    if (!socket.destroyed) socket.setTimeout(idle);
  }
}

/**
 * Runs `fn` over the bytes of the uploaded file (the first file part, any field name), spooled first and
 * without the idle deadline. Imports spool their files first, so that the request has arrived before the
 * import starts: read while importing (back-pressure), a million-row import would keep the request
 * incomplete for as long as the import runs, and the connection deadline for a whole request
 * (REQUEST_TIMEOUT_MS, 60 s) would end it with a 408. The upload is admitted by `uploads` (its budget)
 * before a byte is read, and its spooled file is removed when `fn` ends, however it ends.
 */
export async function withUpload<R>(
  uploads: UploadSpool,
  req: FastifyRequest,
  ns: string,
  fn: (source: AsyncIterable<Uint8Array>) => Promise<R>,
): Promise<R> {
  if (!req.isMultipart()) throw new AppError('unsupported-media-type', 'errors.unsupportedMediaType');
  const admission = uploads.admit(req);
  try {
    const file = await req.file();
    if (!file) throw new AppError('invalid-argument', `${ns}.import.noFile`, { fields: [{ field: 'file', key: `${ns}.import.noFile` }] });
    const spooled = await admission.spool(file.file);
    return await withoutIdleDeadline(req, () => fn(spooled.read()));
  } finally {
    await admission.release();
  }
}

/**
 * Runs `fn` over every file part of the request (field name, file name and spooled bytes, in the request's order),
 * each spooled as it arrives, under one admission of `uploads` as withUpload's; the files are removed when
 * `fn` ends. The idle deadline is the caller's to lift (withoutIdleDeadline) once it has checked the parts.
 */
export async function withUploads<R>(
  uploads: UploadSpool,
  req: FastifyRequest,
  fn: (files: { field: string; filename: string; upload: SpooledUpload }[]) => Promise<R>,
): Promise<R> {
  if (!req.isMultipart()) throw new AppError('unsupported-media-type', 'errors.unsupportedMediaType');
  const admission = uploads.admit(req);
  try {
    const files: { field: string; filename: string; upload: SpooledUpload }[] = [];
    for await (const part of req.parts()) {
      if (part.type === 'file') files.push({ field: part.fieldname, filename: part.filename, upload: await admission.spool(part.file) });
    }
    return await fn(files);
  } finally {
    await admission.release();
  }
}

/** A small file read into memory with the text fields of its multipart request (readSmallUpload). */
export interface SmallUpload {
  /** the first file part's bytes; null when the request carried no file */
  bytes: Buffer | null;
  /** the file, or the request's declared body, was over `maxBytes`: nothing of it is kept */
  tooLarge: boolean;
  fields: Record<string, string>;
}

/**
 * Reads the first file part of a multipart request into memory, for images and key files of a few hundred
 * kilobytes, with the request's text fields. A body that declares more than `maxBytes` and some room for its
 * fields is refused before a byte is read, and the file stream stops a byte past the limit, so at most that
 * much is ever held; either way `tooLarge` is set for the caller to answer with its own message.
 */
export async function readSmallUpload(req: FastifyRequest, maxBytes: number): Promise<SmallUpload> {
  if (!req.isMultipart()) throw new AppError('unsupported-media-type', 'errors.unsupportedMediaType');
  const out: SmallUpload = { bytes: null, tooLarge: false, fields: {} };
  const declared = Number(req.headers['content-length']);
  if (Number.isSafeInteger(declared) && declared > maxBytes + FIELDS_ROOM) return { ...out, tooLarge: true };
  try {
    for await (const part of req.parts({ limits: { fileSize: maxBytes + 1, files: 1 } })) {
      if (part.type === 'file') {
        if (out.bytes) part.file.resume();
        else out.bytes = await part.toBuffer();
      } else if (typeof part.value === 'string') {
        out.fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    // The file stream stops at the limit and the error surfaces from the parts iterator.
    if ((err as { code?: string }).code !== 'FST_REQ_FILE_TOO_LARGE') throw err;
    return { ...out, bytes: null, tooLarge: true };
  }
  if (out.bytes && out.bytes.length > maxBytes) return { ...out, bytes: null, tooLarge: true };
  return out;
}

/** Room in a small upload's body for the multipart boundaries and a few short text fields. */
const FIELDS_ROOM = 64 * 1024;

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
    .header('content-disposition', contentDisposition('attachment', filename))
    .header('cache-control', 'no-store')
    .send(Readable.from(body()));
}

type Row = (string | number | null)[];

function toAsync<T>(it: Iterator<T>): AsyncIterator<T> {
  return { next: async () => it.next() };
}
