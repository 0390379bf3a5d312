/**
 * How a test record is stored: samples as one bytea of little-endian float64 pairs (t0, p0, t1, p1, …),
 * exact and 16 bytes a point; and the content hash that tells a resent record (same hash: a duplicate)
 * from a changed one (another hash: a conflict). Every writer of test_records (bench API, CSV import)
 * must use these two, so that the same record sent either way hashes the same.
 */
import { createHash, hash } from 'node:crypto';
import os from 'node:os';
import type { Sample, TestRecordValues } from '../../../shared/contract/machine-data';

// A Float64Array writes in the machine's byte order; the stored format is little-endian.
const LITTLE_ENDIAN = os.endianness() === 'LE';

export function encodeSamples(samples: readonly Sample[]): Buffer | null {
  if (samples.length === 0) return null;
  if (LITTLE_ENDIAN) {
    const f = new Float64Array(samples.length * 2);
    for (let i = 0; i < samples.length; i++) {
      f[2 * i] = samples[i]!.t;
      f[2 * i + 1] = samples[i]!.p;
    }
    return Buffer.from(f.buffer, f.byteOffset, f.byteLength);
  }
  const buf = Buffer.allocUnsafe(samples.length * 16);
  for (let i = 0; i < samples.length; i++) {
    buf.writeDoubleLE(samples[i]!.t, i * 16);
    buf.writeDoubleLE(samples[i]!.p, i * 16 + 8);
  }
  return buf;
}

export function decodeSamples(buf: Uint8Array | null): Sample[] {
  if (!buf || buf.byteLength === 0) return [];
  const b = Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  const out: Sample[] = new Array(b.byteLength / 16);
  for (let i = 0; i < out.length; i++) out[i] = { t: b.readDoubleLE(i * 16), p: b.readDoubleLE(i * 16 + 8) };
  return out;
}

/** The fields that make a record's content, in a fixed order (the recordId is the key, not content). */
type Content = Omit<TestRecordValues, 'recordId' | 'samples' | 'instrumentId' | 'fluidTemperature' | 'side'> &
  Partial<Pick<TestRecordValues, 'instrumentId' | 'fluidTemperature' | 'side'>>;

/**
 * SHA-256 over the record's normalised values and its encoded samples. Values are those the schema gives
 * (serial normalised, testedAt as UTC ISO text, numbers as JSON numbers), so formatting differences of the
 * sender (`+08:00` vs `Z`, `1.50` vs `1.5`, lower-case serial) are not conflicts.
 */
export function recordContentHash(v: Content, samples: Buffer | null): Buffer {
  const h = createHash('sha256').update(contentText(v));
  if (samples) h.update(samples);
  return h.digest();
}

/**
 * recordContentHash as hex, for the CSV import's COPY text. A record without samples is hashed in one call
 * (crypto.hash), without a Hash object, a digest buffer and its conversion per record.
 */
export function recordContentHashHex(v: Content, samples: Buffer | null): string {
  if (!samples) return hash('sha256', contentText(v), 'hex');
  return createHash('sha256').update(contentText(v)).update(samples).digest('hex');
}

/** The hashed text before the samples: the content's values as JSON, then a line end. */
function contentText(v: Content): string {
  const fields: unknown[] = [
    v.serial,
    v.testType,
    v.medium,
    v.testPressure,
    v.holdingSeconds,
    v.leakageValue,
    v.leakageUnit,
    v.result,
    v.testedAt,
    v.operator,
  ];
  // Fields added later go in only when the record has them, so that a record stored before them hashes as it
  // did then and is a duplicate, not a conflict, when its bench sends it again.
  if (v.instrumentId) fields.push(v.instrumentId);
  // The test conditions as one object: no string of the instrument can be taken for them.
  const fluidTemperature = v.fluidTemperature ?? null;
  const side = v.side ?? null;
  if (fluidTemperature !== null || side !== null) fields.push({ fluidTemperature, side });
  return `${JSON.stringify(fields)}\n`;
}
