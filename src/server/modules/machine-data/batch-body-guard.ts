/**
 * Bounds a bench's batch while its bytes arrive, before anything is parsed (docs/decisions/0020): the
 * number of records, each record's size and the number of objects and arrays in the whole body. JSON.parse
 * of a body of empty records (`{"records":[{},{},…]}`) builds millions of objects, several bytes of memory
 * per byte of body and seconds of blocked event loop; this scan costs one pass over the bytes and stops the
 * request at the first byte past a bound, so a hostile body costs at most the bytes read so far.
 */
import { Transform, type TransformCallback } from 'node:stream';
import { MAX_BATCH_RECORDS } from '../../../shared/contract/machine-data';
import { AppError } from '../../../shared/errors';
import { MAX_JSON_DEPTH } from '../../lib/body-parsers';

/** A record with its most samples (MAX_SAMPLES of the contract) written out in full is about 400 KB; twice that leaves room for spacing. */
export const MAX_RECORD_BYTES = 1024 * 1024;
/**
 * Sample points across one batch: 5,000 records of 600 points each (a 58 MB body, the largest a bench
 * sends), or fewer records with up to MAX_SAMPLES each. Each point is one object, the costly part of a parse.
 */
export const MAX_BATCH_SAMPLES = 3_000_000;
/** Objects and arrays a batch may hold: each record, its samples array and its points, and the envelope. */
export const MAX_BATCH_CONTAINERS = MAX_BATCH_RECORDS * 2 + MAX_BATCH_SAMPLES + 2;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

/**
 * A pass-through stream that errors (an AppError, rendered as 413 or 400) as soon as the JSON it carries
 * holds more than MAX_BATCH_RECORDS values in an array of the top-level object, a record longer than
 * MAX_RECORD_BYTES, more than MAX_BATCH_CONTAINERS objects and arrays, or nests deeper than MAX_JSON_DEPTH.
 * It does not check that the JSON is well formed: the parser after it does.
 */
export class BatchBodyGuard extends Transform {
  /** open containers, innermost last: true for an array */
  private readonly open: boolean[] = [];
  private inString = false;
  private escaped = false;
  private offset = 0;
  private containers = 0;
  private records = 0;
  /** byte offset where the current record began; -1 between records */
  private recordStart = -1;
  /** after `[` or `,` in a records array: the next non-space byte starts a record */
  private expectingRecord = false;

  /** Fastify compares this with the body limit as the bytes arrive (its docs for preParsing streams). */
  receivedEncodedLength = 0;

  override _transform(chunk: Buffer | string, _encoding: BufferEncoding, done: TransformCallback): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.receivedEncodedLength += bytes.length;
    const refusal = this.scan(bytes);
    if (refusal) return done(refusal);
    done(null, bytes);
  }

  private inRecordsArray(): boolean {
    return this.open.length === 2 && this.open[0] === false && this.open[1] === true;
  }

  private scan(bytes: Buffer): AppError | null {
    for (let i = 0; i < bytes.length; i++, this.offset++) {
      const b = bytes[i]!;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (b === BACKSLASH) this.escaped = true;
        else if (b === QUOTE) this.inString = false;
        continue;
      }
      if (isSpace(b)) continue;
      if (this.expectingRecord && b !== CLOSE_ARRAY) {
        this.expectingRecord = false;
        this.records++;
        if (this.records > MAX_BATCH_RECORDS) {
          return new AppError('out-of-range', 'machineData.tooManyRecords', { params: { max: MAX_BATCH_RECORDS } });
        }
        this.recordStart = this.offset;
      }
      if (b === QUOTE) this.inString = true;
      else if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
        this.containers++;
        if (this.containers > MAX_BATCH_CONTAINERS) {
          return new AppError('out-of-range', 'limits.batchTooComplex', { params: { max: MAX_BATCH_SAMPLES, records: MAX_BATCH_RECORDS } });
        }
        this.open.push(b === OPEN_ARRAY);
        if (this.open.length > MAX_JSON_DEPTH) {
          return new AppError('invalid-argument', 'errors.jsonTooDeep', { params: { max: MAX_JSON_DEPTH } });
        }
        if (this.inRecordsArray()) this.expectingRecord = true;
      } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
        if (this.inRecordsArray()) this.recordStart = -1;
        this.open.pop();
      } else if (b === COMMA && this.inRecordsArray()) {
        this.recordStart = -1;
        this.expectingRecord = true;
      }
      if (this.recordStart >= 0 && this.offset - this.recordStart >= MAX_RECORD_BYTES) {
        return new AppError('out-of-range', 'limits.recordTooLarge', {
          params: { index: this.records - 1, maxKb: MAX_RECORD_BYTES / 1024 },
        });
      }
    }
    // A record that is one long string still counts its bytes, though they were skipped above.
    if (this.recordStart >= 0 && this.offset - this.recordStart >= MAX_RECORD_BYTES) {
      return new AppError('out-of-range', 'limits.recordTooLarge', { params: { index: this.records - 1, maxKb: MAX_RECORD_BYTES / 1024 } });
    }
    return null;
  }
}

/**
 * The request body as the batch route reads it: through a BatchBodyGuard. When the guard refuses, the
 * connection is closed after the answer, so the rest of a hostile body is neither read nor kept.
 */
export function guardBatchBody(payload: NodeJS.ReadableStream, onRefused: () => void): BatchBodyGuard {
  const guard = new BatchBodyGuard();
  payload.on('error', (err: Error) => guard.destroy(err));
  guard.once('error', onRefused);
  payload.pipe(guard);
  return guard;
}
