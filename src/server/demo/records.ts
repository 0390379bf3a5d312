/**
 * Test records as the benches send them: for each tested unit a shell test at 1.5 × the rating and a seat
 * test at 1.1 × (and a backseat test on gate and globe valves), the minimum holding time for its size, a
 * few failures each retested later, pressure curves for a share of them. One bench (Hydro Bench 2) drifts:
 * over the last half year its test pressure creeps towards the upper limit and it fails more, which the
 * quality charts show.
 */
import { TEST_PRESSURE_FACTORS } from '../../shared/contract/quality';
import { holdingSeconds, type GeneratedProduct } from './products';
import { generateRanges, serialOf, TESTING_DAYS, type GeneratedRange } from './ranges';
import type { Random } from './random';

export const BENCHES = [
  { name: 'Hydro Bench 1', code: 'HB1', operators: ['Chen Wei', '王建國'] },
  { name: 'Hydro Bench 2', code: 'HB2', operators: ['Lin Mei-Hua', 'J. Alvarez'] },
  { name: 'Hydro Bench 3', code: 'HB3', operators: ['張淑芬', 'Huang Zhi-Ming'] },
] as const;
/** the bench whose pressure drifts */
export const DRIFTING_BENCH = 1;
const DRIFT_DAYS = 180;
/** A bench tests this many units a day; a range's units are tested over the days after its production. */
const UNITS_PER_DAY = 25;
const DAY = 86_400_000;

type TestKind = 'shell' | 'seat' | 'backseat';

export interface GeneratedRecord {
  recordId: string;
  serial: string;
  testType: TestKind;
  medium: 'water';
  testPressure: number;
  holdingSeconds: number;
  leakageValue: number | null;
  leakageUnit: string | null;
  result: 'pass' | 'fail';
  testedAt: string;
  operator: string;
  machine: string;
  samples: Array<{ t: number; p: number }> | null;
}

/** Allowed seat leakage in drops per minute (API 598 table 5, metal seats; soft seats: none). */
function allowedDrops(p: GeneratedProduct): number {
  if (p.type.softSeat || p.dn <= 50) return 0;
  return p.dn <= 150 ? 12 : 20;
}

/** A pressure curve: ramp up in 5 s, hold (losing `drop` of the pressure), release in 3 s, about 1 point a second. */
function curve(r: Random, pressure: number, hold: number, drop: number): Array<{ t: number; p: number }> {
  const total = 5 + hold + 3;
  const points = Math.min(300, Math.max(40, total + 1));
  const out: Array<{ t: number; p: number }> = [];
  for (let i = 0; i < points; i++) {
    const t = Math.round(((total * i) / (points - 1)) * 1000) / 1000;
    const base = t < 5 ? (pressure * t) / 5 : t <= 5 + hold ? pressure * (1 - (drop * (t - 5)) / Math.max(1, hold)) : Math.max(0, pressure * (1 - drop) * (1 - (t - 5 - hold) / 3));
    out.push({ t, p: Math.max(0, Math.round(base * (1 + r.normal(0, 0.0015)) * 10000) / 10000) });
  }
  return out;
}

export interface RecordPlan {
  count: number;
  sampledShare: number;
  days: number;
  today: number;
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
  const seq = BENCHES.map(() => 0);
  let emitted = 0;
  let budget = 0;
  const perRange = plan.count / rangeCount;
  for (const range of generateRanges(rangeRandom, products, rangeCount, plan.days, plan.today)) {
    budget += perRange;
    const p = products[range.product]!;
    const bench = r.int(0, BENCHES.length - 1);
    const b = BENCHES[bench]!;
    const day = Date.parse(`${range.productionDate}T00:30:00Z`);
    const drift = bench === DRIFTING_BENCH ? Math.max(0, 1 - (plan.today - day) / (DRIFT_DAYS * DAY)) : 0;
    const tests: TestKind[] = p.type.backseat ? ['shell', 'seat', 'backseat'] : ['shell', 'seat'];
    const recent = plan.today - day < 30 * DAY;
    let at = day;
    for (let n = range.start; n <= range.end && budget >= 1 && emitted < plan.count; n++) {
      const k = n - range.start;
      if (k % UNITS_PER_DAY === 0) at = day + Math.min(TESTING_DAYS - 1, k / UNITS_PER_DAY) * DAY;
      const serial = serialOf(range, n);
      onSerial?.(serial, range);
      const operator = r.pick(b.operators);
      for (const kind of tests) {
        const required = p.ratingMpa * TEST_PRESSURE_FACTORS[kind]!;
        const hold = holdingSeconds(kind, p.dn) + r.int(0, 5);
        const failP = (kind === 'seat' ? 0.02 : kind === 'shell' ? 0.006 : 0.003) * (1 + 3 * drift);
        let attempts = 0;
        let failed: boolean;
        do {
          failed = attempts < 2 && r.chance(attempts === 0 ? failP : 0.15);
          const offset = r.normal(0.03, 0.012) + 0.055 * drift;
          const pressure = Math.round(required * (1 + Math.max(0.002, offset)) * 1000) / 1000;
          const allowed = allowedDrops(p);
          const leakage = kind === 'shell' ? null : failed ? allowed + r.int(3, 30) : r.int(0, allowed);
          const sampled = r.chance(plan.sampledShare);
          seq[bench] = seq[bench]! + 1;
          yield {
            recordId: `${b.code}-${range.productionDate.replace(/-/g, '')}-${String(seq[bench]).padStart(7, '0')}`,
            serial,
            testType: kind,
            medium: 'water',
            testPressure: pressure,
            holdingSeconds: hold,
            leakageValue: leakage,
            leakageUnit: leakage === null ? null : 'drops/min',
            result: failed ? 'fail' : 'pass',
            testedAt: new Date(at).toISOString(),
            operator,
            machine: b.name,
            samples: sampled ? curve(r, pressure, hold, failed && kind === 'shell' ? 0.04 : r.normal(0.003, 0.001)) : null,
          };
          emitted++;
          budget--;
          attempts++;
          // a retest waits for the repair; the next test follows the last one's release
          at += failed ? 25 * 60_000 : (hold + 40) * 1000;
          // now and then a unit that failed lately still waits for its repair (the open failures)
          if (failed && recent && r.chance(0.25)) break;
        } while (failed && emitted < plan.count);
      }
    }
    if (emitted >= plan.count) return;
  }
}
