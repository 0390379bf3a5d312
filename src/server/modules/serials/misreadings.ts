/**
 * How a worn or misread nameplate's serial may have been typed (docs/decisions/0060-misread-serials.md): a
 * letter and a digit that look alike taken for each other (O/0, I/1, S/5, B/8), or one digit of the number
 * missed or typed twice. Pure: the readings to look up, each with its rank, the likeliest first.
 */
import type { SerialReading } from './serials.repo';

/** Letters read as the digits they look like; a range's prefix is compared in the same form (migration 0040). */
export const READ_ALIKE_FROM = 'OISB';
export const READ_ALIKE_TO = '0158';

/** The text with every look-alike letter written as its digit: "BF3OO000001" → "8F300000001". */
export function readAlike(letters: string): string {
  let out = '';
  for (const c of letters) {
    const i = READ_ALIKE_FROM.indexOf(c);
    out += i < 0 ? c : READ_ALIKE_TO[i];
  }
  return out;
}

export interface RankedReading extends SerialReading {
  /**
   * 1: the same characters read alike; 2: a zero of the number's padding missed or typed twice (one reading
   * each way); 3: any other digit missed or typed twice (many readings: offered only when one unit answers).
   */
  rank: 1 | 2 | 3;
}

/**
 * The readings of `letters` (upper case, without separators) for numbers of the widths `widths` that ranges
 * use, the typed text itself read alike included (rank 1). The skeleton is in the read-alike form.
 */
export function misreadings(letters: string, widths: readonly number[]): RankedReading[] {
  const text = readAlike(letters);
  const out = new Map<string, RankedReading>();
  const add = (skeleton: string, digits: string, rank: RankedReading['rank']) => {
    const key = `${skeleton}|${digits}`;
    const known = out.get(key);
    if (!known || known.rank > rank) out.set(key, { skeleton, width: digits.length, number: BigInt(digits), rank });
  };
  const tail = (n: number) =>
    n >= 1 && n <= text.length && /^\d+$/.test(text.slice(text.length - n)) ? text.slice(text.length - n) : null;
  for (const width of widths) {
    const exact = tail(width);
    if (exact !== null) add(text.slice(0, text.length - width), exact, 1);
    // One digit missed: the typed number is a digit short.
    const short = width > 1 ? tail(width - 1) : null;
    if (short !== null) {
      const skeleton = text.slice(0, text.length - short.length);
      const zeros = /^0*/.exec(short)![0].length;
      if (zeros > 0) add(skeleton, `0${short}`, 2);
      for (let at = 0; at <= short.length; at++) for (const d of '0123456789') add(skeleton, short.slice(0, at) + d + short.slice(at), 3);
    }
    // One digit typed twice (or one too many): the typed number is a digit long.
    const long = tail(width + 1);
    if (long !== null) {
      const skeleton = text.slice(0, text.length - long.length);
      const zeros = /^0*/.exec(long)![0].length;
      if (zeros > 1) add(skeleton, long.slice(1), 2);
      for (let at = 0; at < long.length; at++) add(skeleton, long.slice(0, at) + long.slice(at + 1), 3);
    }
  }
  return [...out.values()];
}
