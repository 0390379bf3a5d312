/** A seeded pseudo-random source (mulberry32) and the few draws the generator needs: same seed, same data. */
export interface Random {
  (): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** a normal draw (Box–Muller) */
  normal(mean: number, sd: number): number;
  chance(p: number): boolean;
}

export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  const next = (() => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }) as Random;
  next.int = (min, max) => min + Math.floor(next() * (max - min + 1));
  next.pick = (items) => items[Math.floor(next() * items.length)]!;
  next.normal = (mean, sd) => mean + sd * Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  next.chance = (p) => next() < p;
  return next;
}
