/**
 * How much data the generator makes. `demo` is what `npm run demo` shows; `bench` what the benchmarks load;
 * `small` the demo's shape at a size CI can start in seconds (test/demo-start.test.ts).
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
} satisfies Record<string, DemoSize>;

export type SizeName = keyof typeof SIZES;

export function isSizeName(v: string): v is SizeName {
  return Object.hasOwn(SIZES, v);
}
