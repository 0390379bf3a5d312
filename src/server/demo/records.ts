/**
 * Test records as the benches send them. Each tested unit gets the tests its product's standard requires
 * (requiredTests) and those the benches run anyway (shell and seat, and backseat on gate and globe valves).
 * What each test must reach — pressure, minimum hold, allowed leakage — is read from the product's
 * requirement (src/shared/standards/requirement.ts, the one statement of those rules); a product without a
 * standard, or a test its standard has no rule for (EN 12266-1 has no backseat test), is tested as the
 * benches' practice has it, API 598, and is not judged. The bench tests at or slightly above the required
 * pressure (a low-pressure gas test within its band), holds at least the minimum and leaks within the
 * allowance; a backseat never leaks.
 *
 * Then, as in a real shop, a few units do not conform: about 1–2 % fail on the bench and are retested after
 * a repair (a few recent ones still wait for it), and about 0.3 % pass on the bench although the standard
 * rejects them — a backseat that leaked, a hold 10 s short, a pressure just under the minimum. Those are the
 * disagreements staff should find; most were retested hours later, a few recent ones never were, so the
 * release gate holds their units. One bench (Hydro Bench 2) drifts: over the last half year its test
 * pressure creeps upwards and it fails more, which the quality charts show.
 */
import { TEST_TYPES, type TestType } from '../../shared/contract/test-types';
import { deriveRequirement, requiredTests, type TestRequirement } from '../../shared/standards/requirement';
import type { GeneratedProduct } from './products';
import { generateRanges, serialOf, TESTING_DAYS, type GeneratedRange } from './ranges';
import type { Random } from './random';

/**
 * The benches, each with the pressure gauge its records name and the day its gauge's calibration in force is
 * due, counted from today: Hydro Bench 2's is due within 30 days. Hydro Bench 3's (null) fell due three days
 * before its last test, so that its records of those days are held (instruments.ts).
 */
export const BENCHES = [
  { name: 'Hydro Bench 1', code: 'HB1', operators: ['Chen Wei', '王建國'], gauge: 'PG-11', dueInDays: 150 },
  { name: 'Hydro Bench 2', code: 'HB2', operators: ['Lin Mei-Hua', 'J. Alvarez'], gauge: 'PG-21', dueInDays: 20 },
  { name: 'Hydro Bench 3', code: 'HB3', operators: ['張淑芬', 'Huang Zhi-Ming'], gauge: 'PG-31', dueInDays: null },
] as const;

export interface DemoBench {
  name: string;
  code: string;
  operators: readonly string[];
  gauge: string;
  /** days from today to the due day of the calibration in force; null: fell due before its last test */
  dueInDays: number | null;
}

const MORE_OPERATORS = ['Wu Jia-Hao', '李美玲', 'Tsai Yu-Ting', '陳志明', 'M. Novak', '林雅婷'] as const;

/**
 * The benches of a factory with `count` of them (at least the three above, which the demo's story is
 * about): Hydro Bench 4 onwards are steady, each with its own gauge in calibration for months to come.
 */
export function benchesOf(count: number): readonly DemoBench[] {
  const more = Array.from({ length: Math.max(0, count - BENCHES.length) }, (_, i): DemoBench => {
    const n = BENCHES.length + 1 + i;
    return {
      name: `Hydro Bench ${n}`,
      code: `HB${n}`,
      operators: [MORE_OPERATORS[i % MORE_OPERATORS.length]!, MORE_OPERATORS[(i + 3) % MORE_OPERATORS.length]!],
      gauge: `PG-${n}1`,
      dueInDays: 60 + ((i * 37) % 120),
    };
  });
  return [...BENCHES, ...more];
}
/** the bench whose pressure drifts */
export const DRIFTING_BENCH = 1;
export const DRIFT_DAYS = 180;
/** A bench tests this many units a day; a range's units are tested over the days after its production. */
const UNITS_PER_DAY = 25;
const DAY = 86_400_000;
const HOUR = 3_600_000;

/** Chance that a test fails on the bench at its first attempt (more on the drifting bench): 1–2 % of units. */
const FAIL_CHANCE: Record<TestType, number> = { shell: 0.004, seat: 0.01, backseat: 0.002, 'air-seat': 0.005, functional: 0.002 };
/** Chance that a judged test passes on the bench although the standard rejects it: about 0.3 % of units. */
const DISAGREE_CHANCE = 0.0012;

export interface GeneratedRecord {
  recordId: string;
  serial: string;
  testType: TestType;
  medium: 'water' | 'air';
  testPressure: number;
  holdingSeconds: number;
  leakageValue: number | null;
  leakageUnit: string | null;
  result: 'pass' | 'fail';
  testedAt: string;
  operator: string;
  instrumentId: string;
  /** the test fluid's temperature (°C) and the side pressurised: drawn from no random number, so the rest stays as seeded */
  fluidTemperature: number;
  side: 'A' | 'B' | 'both';
  machine: string;
  samples: Array<{ t: number; p: number }> | null;
}

/** One test a unit gets: what it must reach, and whether the product's standard judges it. */
export interface PlannedTest {
  testType: TestType;
  req: TestRequirement;
  /** the product's own standard has a rule for it (else the bench follows API 598 practice, unjudged) */
  judged: boolean;
}

/**
 * The tests a unit of the product gets, in report order: the required ones and the benches' usual shell,
 * seat and (gate, globe) backseat tests, each with the requirement it is tested to.
 */
export function plannedTests(p: GeneratedProduct): PlannedTest[] {
  const own = deriveRequirement(p, p.material);
  const practice = deriveRequirement({ ...p, testStandard: 'api-598', leakageRate: null }, p.material);
  const wanted = new Set<TestType>(['shell', 'seat', ...requiredTests(p)]);
  if (p.valveType === 'gate' || p.valveType === 'globe') wanted.add('backseat');
  const out: PlannedTest[] = [];
  for (const testType of TEST_TYPES) {
    if (!wanted.has(testType)) continue;
    const mine = own?.tests.find((t) => t.testType === testType);
    const req = mine ?? practice?.tests.find((t) => t.testType === testType);
    if (!req) throw new Error(`demo data: no requirement for the ${testType} test of ${p.name}`);
    out.push({ testType, req, judged: mine !== undefined });
  }
  return out;
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;
const floor2 = (n: number) => Math.floor(n * 100) / 100;

/** The pressure a bench sets: `offset` (a share) over the minimum, or within a band, higher with the offset. */
function pressureFor(req: TestRequirement, offset: number): number {
  const min = req.pressureMin ?? 0;
  if (req.pressureMax !== null) {
    const share = Math.min(0.95, Math.max(0.05, 0.25 + offset * 4));
    return round3(min + (req.pressureMax - min) * share);
  }
  return round3(min * (1 + Math.max(0.002, offset)));
}

/** The unit a leakage is read in where the requirement allows none: drops of water, bubbles of gas. */
const countUnit = (t: PlannedTest) => (t.testType === 'air-seat' ? 'bubbles/min' : 'drops/min');

/** Leakage of a test the unit passes: none where none is allowed (and on a backseat), else within the allowance. */
function passingLeakage(r: Random, t: PlannedTest): { value: number | null; unit: string | null } {
  if (t.testType === 'shell') return { value: null, unit: null };
  const { kind, max } = t.req.leakage;
  if (kind === 'none' || kind === 'any' || max === null || t.testType === 'backseat') return { value: 0, unit: countUnit(t) };
  // most units leak well under the allowance
  const share = r() ** 2;
  return kind === 'mm3/s' ? { value: floor2(max * 0.9 * share), unit: kind } : { value: Math.floor(max * share), unit: kind };
}

/** Leakage of a test the bench fails (or should have): clearly over the allowance. */
function excessLeakage(r: Random, t: PlannedTest): { value: number; unit: string } {
  const { kind, max } = t.req.leakage;
  if (kind === 'none' || kind === 'any' || max === null) return { value: r.int(5, 30), unit: countUnit(t) };
  return kind === 'mm3/s'
    ? { value: floor2(max * (1.5 + 3 * r())) + 0.01, unit: kind }
    : { value: Math.floor(max) + r.int(3, 30), unit: kind };
}

/** How a bench pass can fail the standard: leaked, held too short, or tested under the minimum pressure. */
type Disagreement = 'leak' | 'short' | 'low';

/**
 * A pressure curve: ramp up in 5 s, hold (losing `drop` of the pressure) for the holding time and the second
 * the bench takes to release after its timer ends, release in 3 s; about 1 point a second.
 */
function curve(r: Random, pressure: number, hold: number, drop: number): Array<{ t: number; p: number }> {
  const atPressure = hold + 1;
  const total = 5 + atPressure + 3;
  const points = Math.min(300, Math.max(40, total + 1));
  const out: Array<{ t: number; p: number }> = [];
  for (let i = 0; i < points; i++) {
    const t = Math.round(((total * i) / (points - 1)) * 1000) / 1000;
    const base =
      t < 5
        ? (pressure * t) / 5
        : t <= 5 + atPressure
          ? pressure * (1 - (drop * (t - 5)) / Math.max(1, atPressure))
          : Math.max(0, pressure * (1 - drop) * (1 - (t - 5 - atPressure) / 3));
    out.push({ t, p: Math.max(0, Math.round(base * (1 + r.normal(0, 0.0015)) * 10000) / 10000) });
  }
  return out;
}

/**
 * The shop's water through the year: about 17 °C in January to 29 °C in July (a plant in Taiwan), one
 * decimal.
 */
function fluidTemperatureOn(at: number): number {
  const day = (at / DAY) % 365.25;
  return Math.round((23 - 6 * Math.cos((2 * Math.PI * (day - 15)) / 365.25)) * 10) / 10;
}

export interface RecordPlan {
  count: number;
  sampledShare: number;
  days: number;
  today: number;
  /** the benches that test, by default the three of the demo (benchesOf) */
  benches?: readonly DemoBench[];
  /** a range holds this many units × 1 to 20 (generateRanges; 50 by default) */
  rangeStep?: number;
}

/**
 * The records, range by range in production order (the ranges drawn again from their own seed). Stops at
 * `plan.count`. `onSerial` sees each tested unit's serial (the requests pick theirs from them).
 */
export function* generateRecords(
  r: Random,
  rangeRandom: Random,
  products: GeneratedProduct[],
  rangeCount: number,
  plan: RecordPlan,
  onSerial?: (serial: string, range: GeneratedRange) => void,
): Generator<GeneratedRecord> {
  const benches = plan.benches ?? BENCHES;
  const seq = benches.map(() => 0);
  const testsOf = products.map(plannedTests);
  let emitted = 0;
  let budget = 0;
  const perRange = plan.count / rangeCount;
  for (const range of generateRanges(rangeRandom, products, rangeCount, plan.days, plan.today, plan.rangeStep)) {
    budget += perRange;
    const tests = testsOf[range.product]!;
    const bench = r.int(0, benches.length - 1);
    const b = benches[bench]!;
    const day = Date.parse(`${range.productionDate}T00:30:00Z`);
    const drift = bench === DRIFTING_BENCH ? Math.max(0, 1 - (plan.today - day) / (DRIFT_DAYS * DAY)) : 0;
    const recent = plan.today - day < 30 * DAY;
    // staff review the disagreements every quarter or so: the last months' are mostly not found yet
    const unreviewed = plan.today - day < 90 * DAY;
    let at = day;
    for (let n = range.start; n <= range.end && budget >= 1 && emitted < plan.count; n++) {
      const k = n - range.start;
      if (k % UNITS_PER_DAY === 0) at = day + Math.min(TESTING_DAYS - 1, k / UNITS_PER_DAY) * DAY;
      const serial = serialOf(range, n);
      onSerial?.(serial, range);
      const operator = r.pick(b.operators);
      for (const t of tests) {
        if (emitted >= plan.count) break;
        const { req } = t;
        const record = (testedAt: number, failed: boolean, disagreement: Disagreement | null): GeneratedRecord => {
          const offset = r.normal(0.03, 0.012) + 0.055 * drift;
          let pressure = pressureFor(req, offset);
          let hold = req.holdMin + r.int(0, 5);
          let leakage = failed ? excessLeakage(r, t) : passingLeakage(r, t);
          // The bench passes what the standard rejects: its limit set to another figure than the product's.
          if (disagreement === 'leak') leakage = excessLeakage(r, t);
          else if (disagreement === 'short') hold = Math.max(1, req.holdMin - 10);
          else if (disagreement === 'low') pressure = round3((req.pressureMin ?? 0) * (1 - 0.01 - 0.03 * r()));
          seq[bench] = seq[bench]! + 1;
          const sampled = r.chance(plan.sampledShare);
          return {
            recordId: `${b.code}-${range.productionDate.replace(/-/g, '')}-${String(seq[bench]).padStart(7, '0')}`,
            serial,
            testType: t.testType,
            medium: t.testType === 'air-seat' ? 'air' : 'water',
            testPressure: pressure,
            holdingSeconds: hold,
            leakageValue: leakage.value,
            leakageUnit: leakage.value === null ? null : leakage.unit,
            result: failed ? 'fail' : 'pass',
            testedAt: new Date(testedAt).toISOString(),
            operator,
            instrumentId: b.gauge,
            fluidTemperature: fluidTemperatureOn(testedAt),
            side: t.testType === 'seat' || t.testType === 'air-seat' ? 'A' : 'both',
            machine: b.name,
            samples: sampled ? curve(r, pressure, hold, failed && t.testType === 'shell' ? 0.04 : r.normal(0.003, 0.001)) : null,
          };
        };
        const failP = FAIL_CHANCE[t.testType] * (1 + 3 * drift);
        let attempts = 0;
        let failed: boolean;
        do {
          failed = attempts < 2 && r.chance(attempts === 0 ? failP : 0.15);
          // a bench pass the standard rejects: only of a test the product's standard judges, at a first attempt
          let disagreement: Disagreement | null = null;
          if (!failed && attempts === 0 && t.judged && r.chance(DISAGREE_CHANCE)) {
            disagreement =
              t.testType === 'backseat' ? 'leak' : t.testType === 'shell' ? 'short' : r.pick(['leak', 'short', 'low'] as const);
          }
          yield record(at, failed, disagreement);
          emitted++;
          budget--;
          attempts++;
          // Staff found the disagreement and had the unit tested again; the last months' mostly never were.
          if (disagreement && emitted < plan.count && !(unreviewed && r.chance(0.8))) {
            yield record(at + r.int(2, 20) * HOUR, false, null);
            emitted++;
            budget--;
          }
          // a retest waits for the repair; the next test follows the last one's release
          at += failed ? 25 * 60_000 : (req.holdMin + 45) * 1000;
          // now and then a unit that failed lately still waits for its repair (the open failures)
          if (failed && recent && r.chance(0.5)) break;
        } while (failed && emitted < plan.count);
      }
    }
    if (emitted >= plan.count) return;
  }
}
