/**
 * How much data the generator makes. `demo` is what `npm run demo` shows; `bench` what the benchmarks load
 * (a year of records); `decade` ten years of a 20-bench factory; `small` the demo's shape at a size CI can
 * start in seconds (test/demo-start.test.ts). `scaledSize` shrinks one for a test.
 */
export interface DemoSize {
  products: number;
  ranges: number;
  /** test records (two to four per tested unit: the tests its standard requires and the benches' shell, seat and backseat) */
  records: number;
  /** share of records that carry pressure samples */
  sampledShare: number;
  /** public search requests and not-found lookups */
  requests: number;
  /** days of production the ranges span, ending yesterday */
  productionDays: number;
  /** days the public requests span, ending now */
  requestDays: number;
  /** test benches (at least 3, the demo's own; 3 when not given) */
  benches?: number;
  /** a range holds this many units × 1 to 20 (50 when not given: 50 to 1,000 units) */
  rangeStep?: number;
}

export const SIZES = {
  small: { products: 8, ranges: 40, records: 3000, sampledShare: 0.05, requests: 60, productionDays: 3 * 365, requestDays: 60 },
  demo: { products: 20, ranges: 200, records: 50_000, sampledShare: 0.08, requests: 300, productionDays: 3 * 365, requestDays: 60 },
  bench: {
    products: 1000,
    ranges: 1_000_000,
    records: 1_000_000,
    sampledShare: 0.01,
    requests: 100_000,
    productionDays: 3 * 365,
    requestDays: 60,
  },
  // Ten years of a factory with twenty benches: 10,000,000 records in 2,000 ranges of 180 to 3,600 units
  // (about 3,800,000 units at 2.7 tests each: a step of 150, about 3,150,000 units, made 8,460,000 records),
  // and a million public requests over the last year.
  decade: {
    products: 1000,
    ranges: 2000,
    rangeStep: 180,
    records: 10_000_000,
    sampledShare: 0.01,
    requests: 1_000_000,
    productionDays: 10 * 365,
    requestDays: 365,
    benches: 20,
  },
} satisfies Record<string, DemoSize>;

/** `size` with its counts multiplied by `share` (at least one of each), its span and benches kept. */
export function scaledSize(size: DemoSize, share: number): DemoSize {
  const of = (n: number) => Math.max(1, Math.round(n * share));
  return { ...size, products: of(size.products), ranges: of(size.ranges), records: of(size.records), requests: of(size.requests) };
}

export type SizeName = keyof typeof SIZES;

export function isSizeName(v: string): v is SizeName {
  return Object.hasOwn(SIZES, v);
}
