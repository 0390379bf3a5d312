/**
 * Bulk load with `COPY … FROM`, on either engine, inside an open transaction: node-postgres streams the text
 * through `COPY … FROM STDIN` (pg-copy-streams); PGlite has no socket to stream over, and its fastest path is
 * `COPY … FROM '/dev/blob'` with the text handed over as a Blob. Callers feed bounded chunks (tens of
 * thousands of rows), so memory holds one chunk, never the file.
 *
 * Rows are in COPY's text format: tab-separated, `\N` for null, backslash escapes. It is cheaper to produce
 * than CSV and cannot be confused by quotes in the data.
 */
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type pgModule from 'pg';
import type * as pgCopyStreams from 'pg-copy-streams';
import type { Tx } from '../db/client';
import { packageOnFirstUse } from './first-use';

// node-postgres on the first COPY (lib/first-use.ts): a server on the embedded database never opens it at start.
const pg = packageOnFirstUse<typeof pgModule>('pg');
const copyStreams = packageOnFirstUse<typeof pgCopyStreams>('pg-copy-streams');

export type CopyValue = string | number | bigint | boolean | null | undefined;

const SPECIAL = /[\\\t\n\r]/;

/** One value in COPY text format. */
export function copyValue(v: CopyValue): string {
  if (v === null || v === undefined) return '\\N';
  const s = typeof v === 'string' ? v : String(v);
  if (!SPECIAL.test(s)) return s;
  return s.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

/** One row in COPY text format, with its line end. */
export function copyLine(values: readonly CopyValue[]): string {
  let out = '';
  for (let i = 0; i < values.length; i++) out += (i === 0 ? '' : '\t') + copyValue(values[i]);
  return out + '\n';
}

/** Bytes of one slab of CopyText: a few hundred rows; above glibc's mmap threshold, so its memory goes back when freed. */
const SLAB_BYTES = 256 * 1024;

/**
 * COPY text rows kept as UTF-8 bytes in reused slabs rather than as JS strings. A chunk of strings (and,
 * before, the parsed rows waiting to become them) lived long enough in V8's heap to be promoted to its old
 * space, where a million rows' worth piled up as garbage between full collections: most of the import's
 * peak RSS (docs/decisions/0034). Bytes written here live outside the JS heap, and the slabs of a chunk
 * already copied are reused by the next chunks of the same import (`pool`), so memory holds only the rows
 * not yet copied. A row is written whole into one slab (or a buffer of its own when it is larger).
 */
export class CopyText {
  /** rows pushed */
  rows = 0;
  private readonly done: Buffer[] = [];
  private slab: Buffer | null = null;
  private used = 0;
  private readonly owned: Buffer[] = [];

  /** `pool`: free slabs shared by the chunks of one import (slabs return to it on `release`). */
  constructor(private readonly pool: Buffer[] = []) {}

  /** Appends one row (COPY text, ending in `\n`). */
  push(line: string): void {
    // A UTF-16 code unit takes at most 3 bytes in UTF-8: with that much room the row surely fits.
    const room = line.length * 3;
    if (this.slab === null || SLAB_BYTES - this.used < room) {
      this.seal();
      if (room > SLAB_BYTES) {
        this.done.push(Buffer.from(line, 'utf8'));
        this.rows++;
        return;
      }
      this.slab = this.pool.pop() ?? Buffer.allocUnsafe(SLAB_BYTES);
      this.owned.push(this.slab);
      this.used = 0;
    }
    this.used += this.slab.write(line, this.used, 'utf8');
    this.rows++;
  }

  /** The bytes pushed so far, in order. */
  buffers(): Buffer[] {
    this.seal();
    return this.done;
  }

  /** Gives the slabs back to the pool: only once COPY has finished with them (the socket may still hold a written buffer). */
  release(): void {
    this.seal();
    this.done.length = 0;
    this.rows = 0;
    this.pool.push(...this.owned);
    this.owned.length = 0;
  }

  private seal(): void {
    if (this.slab !== null && this.used > 0) this.done.push(this.slab.subarray(0, this.used));
    this.slab = null;
    this.used = 0;
  }
}

/** `"a", "b"`: column names are ours (never user input) but are quoted anyway. */
const columnList = (columns: readonly string[]) => columns.map((c) => `"${c.replace(/"/g, '""')}"`).join(', ');

/** The driver connection behind a Drizzle transaction (the transaction's own, not the pool). */
function connectionOf(tx: Tx): unknown {
  const client = (tx as unknown as { session?: { client?: unknown } }).session?.client;
  if (!client) throw new Error('copy: no driver connection behind this transaction');
  return client;
}

/**
 * Rows per chunk for this connection. PGlite's WebAssembly heap grows to fit the largest statement and never
 * shrinks, so it gets small chunks: importing 100,000 products peaked 160 MB over idle with 20,000-row chunks
 * and 8 MB with 5,000 (and was faster); 50,000 test records (their statement triggers' sorts and transition
 * tables) left 55 MB of it resident with 5,000-row chunks, 40 MB with 2,000 and 36 MB with 1,000, in about the
 * same time with 2,000 and 1.5x longer with 1,000 (docs/decisions/0033, seventh section). On PostgreSQL the
 * size made no difference to memory or time; larger chunks mean fewer statements.
 */
export function chunkRowsFor(tx: Tx): number {
  return onPostgres(tx) ? 20_000 : 2_000;
}

/** Whether the transaction runs on a PostgreSQL server (node-postgres), not on the embedded PGlite. */
export function onPostgres(tx: Tx): boolean {
  return connectionOf(tx) instanceof pg().Client;
}

interface PgliteLike {
  query(text: string, params?: unknown[], options?: { blob?: Blob }): Promise<unknown>;
}

/**
 * Copies `lines` (COPY text rows, each ending in `\n`, as strings or as CopyText) into `table (columns)` on
 * the transaction's connection. The lines of one call are one chunk: the caller bounds it.
 */
export async function copyChunk(tx: Tx, table: string, columns: readonly string[], lines: readonly string[] | CopyText): Promise<void> {
  const bytes = lines instanceof CopyText;
  if ((bytes ? lines.rows : lines.length) === 0) return;
  const client = connectionOf(tx);
  if (client instanceof pg().Client) {
    const text = `COPY ${table} (${columnList(columns)}) FROM STDIN`;
    // Written in slices so that the socket's back-pressure is respected instead of one huge write.
    const source = Readable.from(bytes ? lines.buffers() : slices(lines, 2000));
    await pipeline(source, client.query(copyStreams().from(text)));
    return;
  }
  const text = `COPY ${table} (${columnList(columns)}) FROM '/dev/blob'`;
  await (client as PgliteLike).query(text, [], {
    blob: new Blob(bytes ? (lines.buffers() as Uint8Array<ArrayBuffer>[]) : (lines as string[])),
  });
}

function* slices(lines: readonly string[], size: number): Generator<string> {
  for (let i = 0; i < lines.length; i += size) yield lines.slice(i, i + size).join('');
}
