/**
 * The spool of CSV uploads and its budget (docs/decisions/0040-upload-budget.md). An import's files are
 * written here as they arrive, then imported (lib/http-files.ts says why). Each request is admitted
 * before its body is read: it reserves what it declares (Content-Length, at most UPLOAD_REQUEST_LIMIT)
 * against its user's budget and the instance's, and is refused with 429 when either is spent, or with 413
 * when it declares more than a request may carry. What arrives is counted as it arrives, and a file or a
 * request over its limit is cut there with 413: the spool never holds more than was reserved.
 *
 * One spool per app (`app.ctx.uploads`), under DATA_DIR/spool: private to the server's user (0700, files
 * 0600), and emptied when the app starts (what a crash left behind is no one's).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors';
import type { Config } from '../config';
import { addressKey } from './client-key';

export type UploadLimits = Config['uploads'];

/**
 * What a multipart body adds around its files (boundaries, part headers, a few small fields), allowed in a
 * declared length over UPLOAD_REQUEST_LIMIT: the limit is the files', not the envelope's.
 */
export const MULTIPART_ALLOWANCE = 64 * 1024;

/** An uploaded file part kept in the spool until its admission is released. */
export interface SpooledUpload {
  /** its bytes, from the start */
  read(): AsyncIterable<Uint8Array>;
}

/** A size for a message: "200 MB", "64 KB" (binary units, as the limits are set). */
export function sizeText(bytes: number): string {
  const mb = bytes / 1024 ** 2;
  if (mb >= 1) return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
  return `${Math.ceil(bytes / 1024)} KB`;
}

const tooLarge = (key: 'limits.uploadFileTooLarge' | 'limits.uploadTooLarge', max: number) =>
  new AppError('out-of-range', key, { params: { max: sizeText(max) } });

export class UploadSpool {
  private instanceReserved = 0;
  private readonly userReserved = new Map<string, number>();

  private constructor(
    readonly dir: string,
    readonly limits: UploadLimits,
  ) {}

  /**
   * The spool in `dir`, emptied of what an earlier process left there and made private (0700) if it
   * exists; otherwise it is made so by the first upload (an app that never takes one leaves no folder).
   */
  static async open(dir: string, limits: UploadLimits): Promise<UploadSpool> {
    const names = await fs.promises.readdir(dir).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    });
    if (names) {
      await fs.promises.chmod(dir, 0o700);
      for (const name of names) await fs.promises.rm(path.join(dir, name), { recursive: true, force: true });
    }
    return new UploadSpool(dir, limits);
  }

  /** Bytes reserved by the uploads in flight on this instance. */
  get reserved(): number {
    return this.instanceReserved;
  }

  /**
   * Admits an upload before its body is read, or refuses it: 413 when it declares more than a request may
   * carry, 429 when its user's or the instance's budget has no room for it. Release it however it ends.
   */
  admit(req: FastifyRequest): UploadAdmission {
    const { requestBytes, userBytes, instanceBytes } = this.limits;
    const header = req.headers['content-length'];
    const declared = header === undefined ? NaN : Number(header);
    const known = Number.isSafeInteger(declared) && declared >= 0;
    if (known && declared > requestBytes + MULTIPART_ALLOWANCE) throw tooLarge('limits.uploadTooLarge', requestBytes);
    // Without a declared length (a chunked body) the request may carry up to its limit.
    const allowance = known ? Math.min(declared, requestBytes) : requestBytes;
    const user = req.user ? `user:${req.user.id}` : `ip:${addressKey(req.ip)}`;
    const ofUser = this.userReserved.get(user) ?? 0;
    if (ofUser + allowance > userBytes) {
      throw new AppError('resource-exhausted', 'limits.uploadsBusyUser', { params: { max: sizeText(userBytes) } });
    }
    if (this.instanceReserved + allowance > instanceBytes) throw new AppError('resource-exhausted', 'limits.uploadsBusy');
    this.userReserved.set(user, ofUser + allowance);
    this.instanceReserved += allowance;
    return new UploadAdmission(this.dir, this.limits, allowance, () => {
      this.instanceReserved -= allowance;
      const left = (this.userReserved.get(user) ?? 0) - allowance;
      if (left > 0) this.userReserved.set(user, left);
      else this.userReserved.delete(user);
    });
  }
}

/** One admitted request: its reservation and its spooled files, all let go by `release()`. */
export class UploadAdmission {
  private written = 0;
  private readonly files: string[] = [];
  private released = false;

  constructor(
    private readonly dir: string,
    private readonly limits: UploadLimits,
    /** the most this request's files may hold together */
    readonly allowance: number,
    private readonly free: () => void,
  ) {}

  /**
   * Writes a file part to the spool (mode 0600) as fast as it arrives, counting as it goes: the part that
   * takes a file past UPLOAD_FILE_LIMIT, or the request past its allowance, ends it with 413 there.
   */
  async spool(file: Readable & { truncated?: boolean }): Promise<SpooledUpload> {
    if (this.released) throw new Error('upload admission already released');
    // Made private when made here; a folder that was already there open() made private.
    await fs.promises.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const at = path.join(this.dir, `${randomUUID()}.upload`);
    this.files.push(at);
    let inFile = 0;
    const meter = new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        inFile += chunk.length;
        this.written += chunk.length;
        if (inFile > this.limits.fileBytes) return done(tooLarge('limits.uploadFileTooLarge', this.limits.fileBytes));
        if (this.written > this.allowance) return done(tooLarge('limits.uploadTooLarge', this.limits.requestBytes));
        done(null, chunk);
      },
    });
    await pipeline(file, meter, fs.createWriteStream(at, { mode: 0o600, flags: 'wx' }));
    // The parser's own limit sits one byte above the meter's, so it never cuts first; if it did, a file cut
    // short must not be imported as if it were whole.
    if (file.truncated) throw tooLarge('limits.uploadFileTooLarge', this.limits.fileBytes);
    return { read: () => fs.createReadStream(at, { highWaterMark: 1 << 16 }) };
  }

  /** Removes the request's spooled files and gives its reservation back; once, however the request ended. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    try {
      await Promise.all(this.files.map((f) => fs.promises.rm(f, { force: true })));
    } finally {
      this.free();
    }
  }
}
