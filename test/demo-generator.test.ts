/**
 * The data generator's rows (src/server/demo), without a database: the same seed gives the same data, and
 * the data keeps the rules it claims (test pressures per API 598 / EN 12266-1, holding times by size,
 * non-overlapping ranges, retests after failures, the drifting bench drifting, requests in the window).
 */
import { describe, expect, it } from 'vitest';
import { TEST_PRESSURE_FACTORS } from '../src/shared/contract/quality';
import { productInput } from '../src/shared/contract/products';
import { generateProducts, holdingSeconds } from '../src/server/demo/products';
import { seededRandom } from '../src/server/demo/random';
import { generateRanges } from '../src/server/demo/ranges';
import { BENCHES, DRIFTING_BENCH, generateRecords, type GeneratedRecord } from '../src/server/demo/records';
import { generateRequests } from '../src/server/demo/requests';

const DAY = 86_400_000;
const today = Date.UTC(2026, 10, 23);
const products = generateProducts(seededRandom(1), 20);
const plan = { count: 20_000, sampledShare: 0.1, days: 3 * 365, today };
const productOf = new Map<string, number>();
const records = (): GeneratedRecord[] => [...generateRecords(seededRandom(3), seededRandom(2), products, 200, plan, (serial, range) => productOf.set(serial, range.product))];

describe('the demo data generator', () => {
  it('gives the same data for the same seed, and other data for another', () => {
    expect(generateProducts(seededRandom(1), 20)).toEqual(products);
    expect(generateProducts(seededRandom(2), 20).map((p) => p.name)).not.toEqual(products.map((p) => p.name));
    expect(records().slice(0, 500)).toEqual(records().slice(0, 500));
  });

  it('makes valid, distinct products with one rating each', () => {
    expect(new Set(products.map((p) => p.name.toLowerCase())).size).toBe(20);
    for (const p of products) {
      expect(productInput.safeParse(p).success, p.name).toBe(true);
      expect([p.pressureFc, p.pressureWcb, p.pressureSus].filter((v) => v !== null)).toEqual([p.ratingMpa]);
      expect(p.name).toMatch(/^DN\d+ (PN\d+|Class \d+) .+ Valve/);
    }
  });

  it('makes ranges that never overlap within a series, ending before today', () => {
    const ranges = [...generateRanges(seededRandom(2), products, 2000, 3 * 365, today)];
    const bySeries = new Map<string, number>();
    for (const r of ranges) {
      expect(r.start).toBeGreaterThan(bySeries.get(r.prefix) ?? 0);
      expect(r.end - r.start + 1).toBeGreaterThanOrEqual(50);
      bySeries.set(r.prefix, r.end);
      expect(Date.parse(r.productionDate)).toBeLessThan(today);
    }
  });

  it('tests at the standard pressures and holding times, retests failures, and lets one bench drift', () => {
    const all = records();
    expect(all.length).toBeGreaterThanOrEqual(plan.count);
    const fails = all.filter((r) => r.result === 'fail');
    expect(fails.length / all.length).toBeGreaterThan(0.003);
    expect(fails.length / all.length).toBeLessThan(0.05);
    for (const r of all) {
      expect(Date.parse(r.testedAt)).toBeLessThan(today);
      if (r.samples) expect(r.samples.every((s, i) => i === 0 || s.t > r.samples![i - 1]!.t)).toBe(true);
    }
    // every old failure has a later test of the same kind on the same unit
    const old = fails.filter((f) => Date.parse(f.testedAt) < today - 60 * DAY);
    for (const f of old) expect(all.some((r) => r.serial === f.serial && r.testType === f.testType && r.testedAt > f.testedAt)).toBe(true);
    // test pressure over the required one (factor × rating), never under it, within the 10 % margin outside
    // the drift; the drifting bench's is clearly higher in the last two months than a year before
    const ratio = (r: GeneratedRecord) => r.testPressure / (products[productOf.get(r.serial)!]!.ratingMpa * TEST_PRESSURE_FACTORS[r.testType]!);
    for (const r of all) expect(ratio(r)).toBeGreaterThanOrEqual(0.999);
    const mean = (bench: string, fromDays: number, toDays: number) => {
      const xs = all.filter((r) => r.machine === bench && Date.parse(r.testedAt) >= today - fromDays * DAY && Date.parse(r.testedAt) < today - toDays * DAY).map(ratio);
      expect(xs.length).toBeGreaterThan(20);
      return xs.reduce((a, b) => a + b, 0) / xs.length;
    };
    const drifting = BENCHES[DRIFTING_BENCH].name;
    const steady = BENCHES[0].name;
    expect(mean(drifting, 60, 0) - mean(drifting, 500, 300)).toBeGreaterThan(0.03);
    expect(Math.abs(mean(steady, 60, 0) - mean(steady, 500, 300))).toBeLessThan(0.01);
    expect(mean(steady, 500, 300)).toBeLessThan(1.1);
    expect(holdingSeconds('shell', 50)).toBe(15);
    expect(holdingSeconds('shell', 200)).toBe(120);
    expect(TEST_PRESSURE_FACTORS.shell).toBe(1.5);
  });

  it('writes public requests within the window, in both languages, with failed deliveries and not-found lookups', () => {
    const now = today + 12 * 3600_000;
    const rows = [...generateRequests(seededRandom(4), { count: 300, days: 60, now, serials: ['GV50-000001', 'BF300-000123'] })];
    expect(rows).toHaveLength(300);
    expect(new Set(rows.map((r) => r.language))).toEqual(new Set(['en', 'zh']));
    expect(rows.some((r) => r.status === 'failed' && r.lastError)).toBe(true);
    expect(rows.some((r) => r.source === 'lookup' && r.status === 'not-found')).toBe(true);
    for (const r of rows) {
      expect(r.createdAt!.getTime()).toBeGreaterThanOrEqual(now - 60 * DAY);
      expect(r.createdAt!.getTime()).toBeLessThanOrEqual(now);
    }
  });
});
