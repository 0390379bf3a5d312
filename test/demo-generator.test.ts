/**
 * The data generator's rows (src/server/demo), without a database: the same seed gives the same data, and
 * the data keeps the rules it claims — products that carry their standard, ranges that name their body
 * material, records tested to the product's requirement (src/shared/standards/requirement.ts) except a few
 * failures (retested) and a few bench passes the standard rejects (the disagreements), one drifting bench,
 * and public requests that run up to now in the number README promises.
 */
import { describe, expect, it } from 'vitest';
import { productInput } from '../src/shared/contract/products';
import type { TestType } from '../src/shared/contract/test-types';
import { deriveRequirement, requiredTests, ratingOf, type TestRequirement } from '../src/shared/standards/requirement';
import { sampleVerdict } from '../src/shared/standards/sample-checks';
import { generateProducts } from '../src/server/demo/products';
import { seededRandom } from '../src/server/demo/random';
import { generateRanges, type GeneratedRange } from '../src/server/demo/ranges';
import { BENCHES, benchesOf, DRIFTING_BENCH, generateRecords, plannedTests, type GeneratedRecord } from '../src/server/demo/records';
import { generateRequests } from '../src/server/demo/requests';
import { scaledSize, SIZES } from '../src/server/demo/sizes';

const DAY = 86_400_000;
const today = Date.UTC(2026, 10, 23);
// the demo's own size (`npm run demo`, seed 1): what staff see
const demo = SIZES.demo;
const products = generateProducts(seededRandom(1), demo.products);
const plan = { count: demo.records, sampledShare: demo.sampledShare, days: demo.productionDays, today };
const rangeOf = new Map<string, GeneratedRange>();
const records = (): GeneratedRecord[] => [
  ...generateRecords(seededRandom(3), seededRandom(2), products, demo.ranges, plan, (serial, range) => rangeOf.set(serial, range)),
];
const all = records();

const derived = new Map<string, ReturnType<typeof deriveRequirement>>();
/** The requirement a record is judged by (undefined: not judged), as the product_requirements rows hold it. */
function requirementOf(r: GeneratedRecord): TestRequirement | undefined {
  const range = rangeOf.get(r.serial)!;
  const key = `${range.product}/${range.bodyMaterial}`;
  if (!derived.has(key)) derived.set(key, deriveRequirement(products[range.product]!, range.bodyMaterial));
  return derived.get(key)?.tests.find((t) => t.testType === r.testType);
}
const planned = products.map(plannedTests);
/** What the bench tested a record to (its product's requirement, or API 598 practice where that has none). */
const plannedOf = (r: GeneratedRecord) => planned[rangeOf.get(r.serial)!.product]!.find((t) => t.testType === r.testType)!.req;

/**
 * The verdict migration 0019's test_record_all_reasons gives a record (units here are the kinds' own names),
 * with 0023's "leakage not recorded" where the requirement limits the leakage to a count or a volume.
 */
function verdictOf(r: GeneratedRecord): 'conforms' | 'nonconforming' | 'not-assessed' {
  const q = requirementOf(r);
  if (!q) return 'not-assessed';
  const sampled = r.samples ? sampleVerdict(r.samples, r.testPressure, r.holdingSeconds) : null;
  const held = sampled?.heldSeconds ?? null;
  const lv = r.leakageValue;
  const bad =
    (sampled?.reasons ?? 0) !== 0 ||
    q.unrated ||
    (q.pressureMin !== null && r.testPressure < q.pressureMin) ||
    (q.pressureMax !== null && r.testPressure > q.pressureMax) ||
    Math.min(r.holdingSeconds, held ?? r.holdingSeconds) < q.holdMin ||
    (lv === null && q.leakage.kind !== 'none' && q.leakage.kind !== 'any') ||
    (lv !== null &&
      lv !== 0 &&
      q.leakage.kind !== 'any' &&
      (q.leakage.kind === 'none' || r.leakageUnit !== q.leakage.kind || lv > q.leakage.max!));
  return bad ? 'nonconforming' : 'conforms';
}

const verdicts = all.map(verdictOf);
const units = new Set(all.map((r) => r.serial));

describe('the demo data generator', () => {
  it('gives the same data for the same seed, and other data for another', () => {
    expect(generateProducts(seededRandom(1), 20)).toEqual(products);
    expect(generateProducts(seededRandom(2), 20).map((p) => p.name)).not.toEqual(products.map((p) => p.name));
    expect(records().slice(0, 500)).toEqual(all.slice(0, 500));
  });

  it('makes valid, distinct products with one rating each', () => {
    expect(new Set(products.map((p) => p.name.toLowerCase())).size).toBe(20);
    for (const p of products) {
      expect(productInput.safeParse(p).success, p.name).toBe(true);
      expect([p.pressureFc, p.pressureWcb, p.pressureSus].filter((v) => v !== null)).toEqual([p.ratingMpa]);
      expect(p.name).toMatch(/^DN\d+ (PN\d+|Class \d+) .+ Valve/);
    }
  });

  it('makes products that carry the standard their names say', () => {
    const typeOf: Record<string, string> = { Gate: 'gate', Globe: 'globe', Ball: 'ball', Check: 'check', Butterfly: 'butterfly' };
    for (const p of products) {
      const [, dn, cls, type] = /^DN(\d+) (PN\d+|Class \d+) .*?(Gate|Globe|Ball|Check|Butterfly) Valve/.exec(p.name)!;
      expect(p.valveType, p.name).toBe(typeOf[type!]);
      expect(p.nominalSize).toBe(Number(dn));
      expect(p.pressureClass).toBe(cls!.replace('Class ', 'CL'));
      expect(p.seatType).toBe(p.valveType === 'ball' || p.valveType === 'butterfly' ? 'soft' : 'metal');
      if (p.testStandard === 'api-598') expect(p.pressureClass).toMatch(/^CL/);
      if (p.testStandard === 'en-12266-1') expect(p.pressureClass).toMatch(/^PN/);
      if (p.testStandard === 'en-12266-1' || p.testStandard === 'iso-5208')
        expect(p.leakageRate).toBe(p.seatType === 'soft' ? 'A' : p.testStandard === 'iso-5208' ? 'C' : 'D');
      else expect(p.leakageRate).toBeNull();
      // everything a standard needs is there: the requirement derives
      if (p.testStandard) expect(deriveRequirement(p, p.material), p.name).not.toBeNull();
    }
    const standards = products.map((p) => p.testStandard);
    expect(standards.filter((s) => s === 'api-598').length).toBeGreaterThan(3);
    expect(standards.filter((s) => s === 'en-12266-1').length).toBeGreaterThan(3);
    expect(standards).toContain('iso-5208');
    // one or two without a standard, so that the bench-only path shows
    expect(standards.filter((s) => s === '').length).toBeGreaterThanOrEqual(1);
    expect(standards.filter((s) => s === '').length).toBeLessThanOrEqual(3);
    const small = generateProducts(seededRandom(1), SIZES.small.products);
    expect(small.some((p) => p.testStandard === '')).toBe(true);
    expect(small.some((p) => p.testStandard !== '')).toBe(true);
  });

  it('makes ranges that never overlap within a series, ending before today, naming the material the product says', () => {
    const ranges = [...generateRanges(seededRandom(2), products, 2000, 3 * 365, today)];
    const bySeries = new Map<string, number>();
    for (const r of ranges) {
      expect(r.start).toBeGreaterThan(bySeries.get(r.prefix) ?? 0);
      expect(r.end - r.start + 1).toBeGreaterThanOrEqual(50);
      bySeries.set(r.prefix, r.end);
      expect(Date.parse(r.productionDate)).toBeLessThan(today);
      const p = products[r.product]!;
      expect(r.bodyMaterial).toBe(p.material);
      expect(ratingOf(p, r.bodyMaterial)).toBe(p.ratingMpa);
    }
  });

  it('tests every unit to its requirement: the required tests, at the pressure, for the hold, within the leakage', () => {
    expect(all.length).toBe(plan.count);
    // checked in plain code, the problems collected: 50,000 records × a few expect() calls each is slow
    const problems: string[] = [];
    const fail = (r: GeneratedRecord, what: string) => problems.push(`${r.recordId} ${r.serial} ${r.testType}: ${what}`);
    const typesOf = new Map<string, Set<TestType>>();
    for (const r of all) {
      if (Date.parse(r.testedAt) >= today) fail(r, 'tested today or later');
      if (r.samples && !r.samples.every((s, i) => i === 0 || s.t > r.samples![i - 1]!.t)) fail(r, 'samples out of order');
      if (r.medium !== (r.testType === 'air-seat' ? 'air' : 'water')) fail(r, `medium ${r.medium}`);
      (typesOf.get(r.serial) ?? typesOf.set(r.serial, new Set()).get(r.serial)!).add(r.testType);
    }
    // every unit whose tests were all generated (the last one may be cut by the count) has its required tests
    // and the benches' usual ones
    const last = all[all.length - 1]!.serial;
    for (const [serial, types] of typesOf) {
      if (serial === last) continue;
      const product = rangeOf.get(serial)!.product;
      for (const t of requiredTests(products[product]!)) if (!types.has(t)) problems.push(`${serial}: no ${t} test`);
      if (
        [...types].sort().join() !==
        planned[product]!.map((t) => t.testType)
          .sort()
          .join()
      )
        problems.push(`${serial}: tests ${[...types].join()}`);
    }
    // the conforming passes: at or slightly over the minimum pressure (a gas test within its band), at least
    // the minimum hold, leakage within the allowance (none on a backseat)
    for (let i = 0; i < all.length; i++) {
      const r = all[i]!;
      if (r.result !== 'pass' || verdicts[i] === 'nonconforming') continue;
      const q = plannedOf(r);
      if (r.testPressure < q.pressureMin!) fail(r, `pressure ${r.testPressure} < ${q.pressureMin}`);
      if (q.pressureMax !== null ? r.testPressure > q.pressureMax : r.testPressure >= q.pressureMin! * 1.15)
        fail(r, `pressure ${r.testPressure} too high`);
      if (r.holdingSeconds < q.holdMin) fail(r, `hold ${r.holdingSeconds} < ${q.holdMin}`);
      if (r.testType === 'shell') {
        if (r.leakageValue !== null) fail(r, 'shell leakage');
      } else if (q.leakage.kind === 'none' || r.testType === 'backseat') {
        if (r.leakageValue !== 0) fail(r, `leakage ${r.leakageValue} where none is allowed`);
      } else if (r.leakageUnit !== q.leakage.kind || r.leakageValue! > q.leakage.max!)
        fail(r, `leakage ${r.leakageValue} ${r.leakageUnit} over ${q.leakage.max} ${q.leakage.kind}`);
    }
    // units without a standard are not judged; the others are (but for EN 12266-1's backseat, which it has no rule for)
    for (let i = 0; i < all.length; i++) {
      const r = all[i]!;
      const p = products[rangeOf.get(r.serial)!.product]!;
      const judged = p.testStandard !== '' && !(r.testType === 'backseat' && p.testStandard === 'en-12266-1');
      if ((verdicts[i] !== 'not-assessed') !== judged) fail(r, `verdict ${verdicts[i]}`);
    }
    expect(problems.slice(0, 20)).toEqual([]);
    expect(verdicts).toContain('not-assessed');
  });

  it('conforms except a few: failures retested (a few recent ones open), and a handful of bench passes the standard rejects', () => {
    const fails = all.filter((r) => r.result === 'fail');
    const failedUnits = new Set(fails.map((r) => r.serial));
    expect(failedUnits.size / units.size).toBeGreaterThan(0.005);
    expect(failedUnits.size / units.size).toBeLessThan(0.04);
    // the product agrees with the bench's failures it judges
    expect(all.filter((r, i) => r.result === 'fail' && verdicts[i] === 'conforms')).toEqual([]);
    // every old failure has a later test of the same kind on the same unit; a few recent ones have none
    const later = (f: GeneratedRecord) => all.some((r) => r.serial === f.serial && r.testType === f.testType && r.testedAt > f.testedAt);
    expect(fails.filter((f) => Date.parse(f.testedAt) < today - 60 * DAY && !later(f))).toEqual([]);
    expect(fails.some((f) => !later(f))).toBe(true);

    // disagreements: a bench pass the product finds nonconforming — about 0.3 % of units
    const disagreements = all.filter((r, i) => r.result === 'pass' && verdicts[i] === 'nonconforming');
    expect(disagreements.length).toBeGreaterThanOrEqual(1);
    const disagreeingUnits = new Set(disagreements.map((r) => r.serial));
    expect(disagreeingUnits.size / units.size).toBeGreaterThan(0.0005);
    expect(disagreeingUnits.size / units.size).toBeLessThan(0.01);
    expect(disagreements.some((r) => r.testType === 'backseat' && r.leakageValue! > 0)).toBe(true);
    // most were retested and conform now; a few never were (the release gate holds those units)
    const retested = disagreements.filter((d) =>
      all.some((r, i) => r.serial === d.serial && r.testType === d.testType && r.testedAt > d.testedAt && verdicts[i] === 'conforms'),
    );
    expect(retested.length).toBeGreaterThan(0);
    expect(retested.length).toBeLessThan(disagreements.length);
    for (const d of disagreements) if (Date.parse(d.testedAt) < today - 100 * DAY) expect(retested).toContain(d);

    // all in all, the units with anything nonconforming are a few per cent at most
    const nonconformingUnits = new Set(all.filter((_, i) => verdicts[i] === 'nonconforming').map((r) => r.serial));
    expect(nonconformingUnits.size / units.size).toBeLessThan(0.04);
  });

  it('never lets a conforming unit leak at its backseat', () => {
    const nonconformingUnits = new Set(all.filter((_, i) => verdicts[i] === 'nonconforming').map((r) => r.serial));
    const failedUnits = new Set(all.filter((r) => r.result === 'fail').map((r) => r.serial));
    const backseats = all.filter((r) => r.testType === 'backseat' && !nonconformingUnits.has(r.serial) && !failedUnits.has(r.serial));
    expect(backseats.length).toBeGreaterThan(100);
    expect(backseats.filter((r) => (r.leakageValue ?? 0) !== 0)).toEqual([]);
  });

  it('lets one bench drift upwards over the last half year, the others steady', () => {
    // test pressure over the required minimum, never under it; the drifting bench's clearly higher in the
    // last two months than a year before
    const factorTests = all.filter((r, i) => r.result === 'pass' && verdicts[i] !== 'nonconforming' && plannedOf(r).pressureMax === null);
    const ratio = (r: GeneratedRecord) => r.testPressure / plannedOf(r).pressureMin!;
    expect(factorTests.filter((r) => ratio(r) < 0.999)).toEqual([]);
    const mean = (bench: string, fromDays: number, toDays: number) => {
      const xs = factorTests
        .filter(
          (r) => r.machine === bench && Date.parse(r.testedAt) >= today - fromDays * DAY && Date.parse(r.testedAt) < today - toDays * DAY,
        )
        .map(ratio);
      expect(xs.length).toBeGreaterThan(20);
      return xs.reduce((a, b) => a + b, 0) / xs.length;
    };
    const drifting = BENCHES[DRIFTING_BENCH].name;
    const steady = BENCHES[0].name;
    expect(mean(drifting, 60, 0) - mean(drifting, 500, 300)).toBeGreaterThan(0.03);
    expect(Math.abs(mean(steady, 60, 0) - mean(steady, 500, 300))).toBeLessThan(0.01);
    expect(mean(steady, 500, 300)).toBeLessThan(1.1);
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

  it('runs the demo requests up to now, as many as README promises, oldest first', () => {
    // README "The demo": "Public requests: 221 over the last 60 days up to now, naming 300 serials in all"
    // (SIZES.demo.requests counts search_requests rows, one per serial asked for or looked up)
    expect(SIZES.demo.requests).toBe(300);
    expect(SIZES.demo.requestDays).toBe(60);
    for (const seed of [1, 4, 7]) {
      const now = today + 9 * 3600_000 + seed * 1000;
      const rows = [
        ...generateRequests(seededRandom(seed + 3), {
          count: SIZES.demo.requests,
          days: SIZES.demo.requestDays,
          now,
          serials: ['GV50-000001', 'BF300-000123'],
        }),
      ];
      expect(rows).toHaveLength(SIZES.demo.requests);
      const times = rows.map((r) => r.createdAt!.getTime());
      expect(times.every((t, i) => i === 0 || t >= times[i - 1]!)).toBe(true);
      expect(times[times.length - 1]!).toBeGreaterThan(now - DAY);
      expect(times[times.length - 1]!).toBeLessThanOrEqual(now);
      expect(times[0]!).toBeLessThan(now - 59 * DAY);
    }
  });

  it("makes the ten-year factory's shape at a small size: twenty benches over ten years, the demo's three among them", () => {
    const decade = { ...scaledSize(SIZES.decade, 0.001), ranges: 200 };
    expect([decade.records, decade.benches, decade.productionDays]).toEqual([10_000, 20, 3650]);
    const benches = benchesOf(decade.benches!);
    const made = generateProducts(seededRandom(1), decade.products);
    const span = {
      count: decade.records,
      sampledShare: decade.sampledShare,
      days: decade.productionDays,
      today,
      benches,
      rangeStep: decade.rangeStep,
    };
    const rows = [...generateRecords(seededRandom(3), seededRandom(2), made, decade.ranges, span)];
    expect(rows).toHaveLength(decade.records);
    expect(new Set(rows.map((r) => r.recordId)).size).toBe(rows.length);
    expect(new Set(rows.map((r) => r.machine))).toEqual(new Set(benches.map((b) => b.name)));
    expect(benches.slice(0, 3).map((b) => b.name)).toEqual(BENCHES.map((b) => b.name));
    expect(new Set(benches.map((b) => b.gauge)).size).toBe(20);
    const times = rows.map((r) => Date.parse(r.testedAt)).sort((a, b) => a - b);
    expect(times[0]!).toBeLessThan(today - 9 * 365 * DAY);
    expect(times[times.length - 1]!).toBeGreaterThan(today - 365 * DAY);
    // At its full size, its 2,000 ranges hold about 3,800,000 units (10,000,000 records at 2.7 tests each).
    const full = SIZES.decade;
    let units = 0;
    for (const g of generateRanges(
      seededRandom(2),
      generateProducts(seededRandom(1), full.products),
      full.ranges,
      full.productionDays,
      today,
      full.rangeStep,
    ))
      units += g.end - g.start + 1;
    expect(units).toBeGreaterThan(3_500_000);
    expect(units).toBeLessThan(4_200_000);
    // every record names its own bench's gauge
    const gaugeOf = new Map(benches.map((b) => [b.name, b.gauge]));
    expect(rows.filter((r) => r.instrumentId !== gaugeOf.get(r.machine))).toEqual([]);
  });
});
