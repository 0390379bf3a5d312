import { describe, expect, it } from 'vitest';
import { misreadings, readAlike } from './misreadings';

const key = (r: { skeleton: string; width: number; number: bigint }) => `${r.skeleton}|${r.number.toString().padStart(r.width, '0')}`;

describe('misread serials', () => {
  it('writes look-alike letters as the digits they look like', () => {
    expect(readAlike('BF3OO000001')).toBe('8F300000001');
    expect(readAlike('SIO')).toBe('510');
    expect(readAlike('ACDE')).toBe('ACDE');
  });

  it('reads letters for digits at the width of the ranges, the likeliest rank first', () => {
    const r = misreadings('BF3OO00OOO1', [6]);
    expect(r.find((x) => x.rank === 1)).toEqual({ skeleton: '8F300', width: 6, number: 1n, rank: 1 });
  });

  it('puts back a zero of the padding missed or typed twice before any other digit', () => {
    const short = misreadings('BF30000001', [6]); // BF300-00001
    // The prefix ends in zeros too: the zero may be missing from it (another series), which the ranges decide.
    expect(short.filter((x) => x.rank === 2).map(key)).toContain('8F300|000001');
    // Any other digit missed is a reading of rank 3: ten digits at each of six places, less repeats.
    expect(short.filter((x) => x.rank === 3).map(key)).toContain('8F300|000011');
    expect(short.filter((x) => x.rank === 3).map(key)).not.toContain('8F300|000001');
    const long = misreadings('BF3000000001', [6]); // BF300-0000001
    expect(long.filter((x) => x.rank === 2).map(key)).toContain('8F300|000001');
    expect(long.filter((x) => x.rank === 3).map(key)).toContain('8F300|000000');
    expect(long.filter((x) => x.rank === 3).map(key)).not.toContain('8F300|000001');
  });

  it('has no readings for a width the text cannot end in', () => {
    expect(misreadings('ABC', [6])).toEqual([]);
    expect(misreadings('', [1, 6])).toEqual([]);
  });
});
