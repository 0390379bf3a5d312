/** Upload and download of catalogue CSV files: multipart registration, the upload stream, CSV responses. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
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

/** An uploaded file part kept in a temporary file (mode 0600) until `release()`. */
export interface SpooledUpload {
  /** its bytes, from the start */
  read(): AsyncIterable<Uint8Array>;
  release(): Promise<void>;
}

/**
 * Writes an uploaded file part to a temporary file as fast as it arrives. Imports spool their files first,
 * so that the request has arrived before the import starts: read while importing (back-pressure), a
 * million-row import would keep the request incomplete for as long as the import runs, and the connection
 * deadline for a whole request (REQUEST_TIMEOUT_MS, 60 s) would end it with a 408. Too large a part fails
 * here, as it failed while being read, and leaves no file.
 */
export async function spoolUpload(file: Readable): Promise<SpooledUpload> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'trc-upload-'));
  const release = () => fs.promises.rm(dir, { recursive: true, force: true });
  const at = path.join(dir, 'upload');
  try {
    await pipeline(file, fs.createWriteStream(at, { mode: 0o600 }));
  } catch (err) {
    await release();
    throw err;
  }
  return { read: () => fs.createReadStream(at, { highWaterMark: 1 << 16 }), release };
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
 * Runs `fn` over the bytes of the uploaded file (the first file part, any field name), spooled first (see
 * spoolUpload) and without the idle deadline.
 */
export async function withUpload<R>(req: FastifyRequest, ns: string, fn: (source: AsyncIterable<Uint8Array>) => Promise<R>): Promise<R> {
  if (!req.isMultipart()) throw new AppError('unsupported-media-type', 'errors.unsupportedMediaType');
  const file = await req.file();
  if (!file) throw new AppError('invalid-argument', `${ns}.import.noFile`, { fields: [{ field: 'file', key: `${ns}.import.noFile` }] });
  const spooled = await spoolUpload(file.file);
  try {
    return await withoutIdleDeadline(req, () => fn(spooled.read()));
  } finally {
    await spooled.release();
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
