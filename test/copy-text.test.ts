/**
 * CopyText (src/server/lib/copy.ts): COPY rows kept as UTF-8 bytes in slabs that are reused across the chunks
 * of one import. Whatever the rows (multi-byte text, rows larger than a slab), the bytes are exactly the rows
 * joined, also when a chunk writes into slabs an earlier chunk released.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CopyText } from '../src/server/lib/copy';

const row = fc.oneof(
  { weight: 20, arbitrary: fc.string({ unit: 'grapheme', maxLength: 300 }) },
  { weight: 1, arbitrary: fc.constantFrom('王'.repeat(90_000), 'x'.repeat(300_000), '😀'.repeat(50_000)) },
);
const text = (c: CopyText) => Buffer.concat(c.buffers()).toString('utf8');

describe('CopyText', () => {
  it('holds exactly the rows pushed, chunk after chunk through one pool of slabs', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.array(
            row.map((s) => `${s}\n`),
            { maxLength: 3000 },
          ),
          { minLength: 1, maxLength: 4 },
        ),
        (chunks) => {
          const pool: Buffer[] = [];
          for (const lines of chunks) {
            const c = new CopyText(pool);
            for (const l of lines) c.push(l);
            expect(c.rows).toBe(lines.length);
            expect(text(c)).toBe(lines.join(''));
            c.release();
            expect(c.rows).toBe(0);
            expect(c.buffers()).toEqual([]);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('does not overwrite the rows of a chunk still held while another chunk of the same pool fills', () => {
    const pool: Buffer[] = [];
    const a = new CopyText(pool);
    for (let i = 0; i < 5000; i++) a.push(`a${i}\tБ\n`);
    const b = new CopyText(pool);
    for (let i = 0; i < 5000; i++) b.push(`b${i}\n`);
    a.release();
    const c = new CopyText(pool);
    for (let i = 0; i < 5000; i++) c.push(`c${i}\n`);
    expect(text(b)).toBe(Array.from({ length: 5000 }, (_, i) => `b${i}\n`).join(''));
    expect(text(c)).toBe(Array.from({ length: 5000 }, (_, i) => `c${i}\n`).join(''));
    expect(pool.length).toBe(0); // c took a's slabs back
  });
});
