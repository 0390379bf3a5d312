import { describe, expect, it } from 'vitest';
import { RecentPdfs, type StoredPdf } from '../src/server/lib/recent-pdfs';

const pdf = (size: number, tag: string): StoredPdf => ({ bytes: Buffer.alloc(size, tag), filename: `test-report-${tag}.pdf`, sha256: tag });

/** A cache with a clock the test moves. */
function cache(maxBytes: number, idleMs: number) {
  let now = 1_000_000;
  const c = new RecentPdfs(maxBytes, idleMs, () => now);
  return { c, advance: (ms: number) => (now += ms) };
}

describe('RecentPdfs (lib/recent-pdfs.ts)', () => {
  it('answers what it was given, and holds no more than its bytes, dropping the least recently used first', () => {
    const { c } = cache(300, 60_000);
    c.remember('a', pdf(100, 'a'));
    c.remember('b', pdf(100, 'b'));
    c.remember('c', pdf(100, 'c'));
    expect(c.bytes).toBe(300);
    expect(c.get('a')?.filename).toBe('test-report-a.pdf'); // a is now the most recently used
    c.remember('d', pdf(100, 'd'));
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')?.bytes.equals(Buffer.alloc(100, 'a'))).toBe(true);
    expect(c.get('c')).toBeDefined();
    expect(c.get('d')).toBeDefined();
    expect(c.bytes).toBe(300);
  });

  it('keeps the first bytes of an id it already holds (a stored report never changes)', () => {
    const { c } = cache(1000, 60_000);
    c.remember('a', pdf(100, 'a'));
    c.remember('a', pdf(200, 'x'));
    expect(c.bytes).toBe(100);
    expect(c.get('a')?.sha256).toBe('a');
  });

  it('drops the entries left unused for its idle time, and only those: a read keeps one', () => {
    const { c, advance } = cache(10_000, 60_000);
    c.remember('a', pdf(100, 'a'));
    c.remember('b', pdf(100, 'b'));
    advance(30_000);
    c.remember('c', pdf(100, 'c'));
    expect(c.get('a')).toBeDefined(); // used again at 30 s
    advance(30_000); // b is 60 s unused; a and c 30 s
    expect(c.dropIdle()).toBe(1);
    expect(c.get('b')).toBeUndefined();
    expect(c.bytes).toBe(200);
    advance(29_999); // a and c unused for 59.999 s
    expect(c.dropIdle()).toBe(0);
    advance(1);
    expect(c.dropIdle()).toBe(2);
    expect(c.bytes).toBe(0);
    expect(c.get('a')).toBeUndefined();
    expect(c.get('c')).toBeUndefined();
  });
});
