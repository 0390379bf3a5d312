/**
 * A ZIP archive written as it goes (PKWARE APPNOTE 6.3: local headers, the stored data, the central
 * directory, the end record), for downloads of many files that are never held together in memory: each
 * entry's bytes are asked for only when the previous ones have been taken by the reader. Entries are
 * stored, not deflated: the files it carries (signed PDFs) are already compressed. Every header carries the
 * entry's CRC-32 and sizes, so no data descriptors are needed; names are UTF-8 (flag bit 11).
 *
 * No ZIP64: an archive that would pass 4 GiB or 65,535 entries is refused (ZipLimitError), before its
 * first byte when the caller knows the sizes (zipFits), else when the entry that would pass is reached.
 */
import type { Writable } from 'node:stream';
import { crc32 } from 'node:zlib';

export const ZIP_MAX_BYTES = 0xffff_ffff;
export const ZIP_MAX_ENTRIES = 0xffff;

export interface ZipEntry {
  /** the path inside the archive (UTF-8) */
  name: string;
  data: Uint8Array;
  modified?: Date;
}

export class ZipLimitError extends Error {
  constructor() {
    super('The archive would need ZIP64 (over 4 GiB or 65,535 entries)');
  }
}

const LOCAL = 30;
const CENTRAL = 46;
const END = 22;
const UTF8_NAMES = 0x0800;
const VERSION = 20;
/** made by: Unix (3), so that the external attributes below are read as a file mode */
const MADE_BY = (3 << 8) | VERSION;
const FILE_MODE = 0o100644;

/** Whether entries of these name and data sizes fit in a ZIP without ZIP64. */
export function zipFits(entries: { nameBytes: number; size: number }[]): boolean {
  if (entries.length > ZIP_MAX_ENTRIES) return false;
  let total = END;
  for (const e of entries) total += LOCAL + CENTRAL + 2 * e.nameBytes + e.size;
  return total <= ZIP_MAX_BYTES;
}

function dosTime(d: Date): { time: number; date: number } {
  const year = Math.min(Math.max(d.getUTCFullYear(), 1980), 2107);
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | (d.getUTCSeconds() >> 1),
    date: ((year - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

interface Written {
  name: Buffer;
  crc: number;
  size: number;
  offset: number;
  time: number;
  date: number;
}

function localHeader(w: Written): Buffer {
  const b = Buffer.alloc(LOCAL);
  b.writeUInt32LE(0x04034b50, 0);
  b.writeUInt16LE(VERSION, 4);
  b.writeUInt16LE(UTF8_NAMES, 6);
  b.writeUInt16LE(0, 8); // stored
  b.writeUInt16LE(w.time, 10);
  b.writeUInt16LE(w.date, 12);
  b.writeUInt32LE(w.crc, 14);
  b.writeUInt32LE(w.size, 18);
  b.writeUInt32LE(w.size, 22);
  b.writeUInt16LE(w.name.length, 26);
  b.writeUInt16LE(0, 28);
  return Buffer.concat([b, w.name]);
}

function centralHeader(w: Written): Buffer {
  const b = Buffer.alloc(CENTRAL);
  b.writeUInt32LE(0x02014b50, 0);
  b.writeUInt16LE(MADE_BY, 4);
  b.writeUInt16LE(VERSION, 6);
  b.writeUInt16LE(UTF8_NAMES, 8);
  b.writeUInt16LE(0, 10);
  b.writeUInt16LE(w.time, 12);
  b.writeUInt16LE(w.date, 14);
  b.writeUInt32LE(w.crc, 16);
  b.writeUInt32LE(w.size, 20);
  b.writeUInt32LE(w.size, 24);
  b.writeUInt16LE(w.name.length, 28);
  // extra, comment, disk, internal attributes: 0
  b.writeUInt32LE((FILE_MODE << 16) >>> 0, 38);
  b.writeUInt32LE(w.offset, 42);
  return Buffer.concat([b, w.name]);
}

function endRecord(count: number, size: number, offset: number): Buffer {
  const b = Buffer.alloc(END);
  b.writeUInt32LE(0x06054b50, 0);
  b.writeUInt16LE(count, 8);
  b.writeUInt16LE(count, 10);
  b.writeUInt32LE(size, 12);
  b.writeUInt32LE(offset, 16);
  return b;
}

class Closed extends Error {}

/**
 * `out.write`, and when it asks to wait (its buffer is full: the reader is slower than we are), waits for
 * 'drain' before going on. Throws Closed when `out` was destroyed (the client went away) meanwhile.
 */
async function put(out: Writable, chunk: Buffer): Promise<void> {
  if (out.destroyed || out.writableEnded) throw new Closed();
  if (out.write(chunk)) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      out.off('error', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
    out.on('error', done);
  });
  if (out.destroyed) throw new Closed();
}

/**
 * Writes the entries to `out` one after another and ends it. The next entry is taken from `entries` only
 * once `out` has room, so a reader that stops reading stops the producer too; when `out` is destroyed
 * (the client closed the connection) the iteration is ended (its `return()` runs: a generator reading
 * from a database stops there) and the answer is 'aborted'. Names must be unique (the caller's rule).
 */
export async function writeZip(out: Writable, entries: AsyncIterable<ZipEntry>): Promise<'done' | 'aborted'> {
  const written: Written[] = [];
  let offset = 0;
  try {
    for await (const entry of entries) {
      const name = Buffer.from(entry.name, 'utf8');
      if (name.length > 0xffff) throw new Error(`ZIP entry name too long: ${entry.name.slice(0, 40)}…`);
      const size = entry.data.byteLength;
      if (written.length + 1 > ZIP_MAX_ENTRIES || offset + LOCAL + name.length + size > ZIP_MAX_BYTES) throw new ZipLimitError();
      const w: Written = { name, crc: crc32(entry.data), size, offset, ...dosTime(entry.modified ?? new Date()) };
      await put(out, localHeader(w));
      await put(out, Buffer.from(entry.data.buffer, entry.data.byteOffset, size));
      offset += LOCAL + name.length + size;
      written.push(w);
    }
    const central = Buffer.concat(written.map(centralHeader));
    if (offset + central.length + END > ZIP_MAX_BYTES) throw new ZipLimitError();
    await put(out, central);
    await put(out, endRecord(written.length, central.length, offset));
    out.end();
    return 'done';
  } catch (err) {
    if (err instanceof Closed) return 'aborted';
    throw err;
  }
}
