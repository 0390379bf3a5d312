/**
 * A shortcut past zod for records already in canonical form, which is what benches send: at 5,000 records a
 * batch, zod's per-field parse was about a third of the app's CPU per record. It accepts a strict subset of
 * what testRecordInput accepts and returns exactly what testRecordInput would (a property test holds it to
 * that: test/machine-data-fast-path.test.ts); anything else (an error, a lower-case serial, `+08:00`, a
 * number as a string) returns null and zod decides. The rules themselves stay stated once, in the contract.
 */
import {
  FLUID_TEMPERATURE_MAX,
  FLUID_TEMPERATURE_MIN,
  HOLDING_SECONDS_MAX,
  LEAKAGE_MAX,
  LEAKAGE_UNIT_MAX,
  MAX_SAMPLES,
  OPERATOR_MAX,
  RECORD_ID_MAX,
  SAMPLE_T_MAX,
  TEST_MEDIA,
  TEST_RESULTS,
  TEST_SIDES,
  TEST_TYPES,
  TESTED_AT_SKEW_MS,
  type Sample,
  type TestSide,
  type TestRecordValues,
} from '../../../shared/contract/machine-data';
import { PRESSURE_MAX, printable } from '../../../shared/contract/products';
import { INSTRUMENT_ID_MAX } from '../../../shared/contract/instruments';

const CANONICAL_SERIAL = /^(?:[A-Z0-9\-_/.]*[A-Z\-_/.])?\d{1,18}$/;
const CANONICAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const types = new Set<string>(TEST_TYPES);
const media = new Set<string>(TEST_MEDIA);
const results = new Set<string>(TEST_RESULTS);
const sides = new Set<string>(TEST_SIDES);

/** A string as the contract's text fields keep it: trimmed already, printable, no NUL, within `max`. */
function cleanText(v: unknown, max: number): v is string {
  return typeof v === 'string' && v.length <= max && v === v.trim() && printable(v);
}

/** A decimal with at most `scale` decimals within [min, max] (decimalField's rules), or undefined. */
function decimal(v: unknown, min: number, max: number, scale: number): number | undefined {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) return undefined;
  const f = 10 ** scale;
  if (Math.abs(Math.round(v * f) - v * f) > 1e-6) return undefined;
  return v === 0 ? 0 : v;
}

function samplesOk(v: unknown): v is Sample[] {
  if (!Array.isArray(v) || v.length > MAX_SAMPLES) return false;
  let prev = -Infinity;
  for (let i = 0; i < v.length; i++) {
    const pt = v[i] as { t?: unknown; p?: unknown } | null;
    if (!pt || typeof pt !== 'object') return false;
    const { t, p } = pt;
    if (typeof t !== 'number' || !(t >= 0 && t <= SAMPLE_T_MAX) || t <= prev) return false;
    if (typeof p !== 'number' || !(p >= -PRESSURE_MAX && p <= PRESSURE_MAX)) return false;
    prev = t;
  }
  return true;
}

/** The values testRecordInput would give for `raw`, when `raw` is canonical and valid; otherwise null. */
export function fastRecord(raw: unknown, now = Date.now()): TestRecordValues | null {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const r = raw as Record<string, unknown>;
  const { recordId, serial, testType, medium, result, testedAt } = r;
  if (!cleanText(recordId, RECORD_ID_MAX) || recordId.length === 0) return null;
  if (typeof serial !== 'string' || serial.length > 64 || !CANONICAL_SERIAL.test(serial)) return null;
  if (typeof testType !== 'string' || !types.has(testType)) return null;
  if (typeof medium !== 'string' || !media.has(medium)) return null;
  if (typeof result !== 'string' || !results.has(result)) return null;
  const testPressure = decimal(r.testPressure, 0, PRESSURE_MAX, 3);
  if (testPressure === undefined) return null;
  const holding = r.holdingSeconds;
  if (typeof holding !== 'number' || !Number.isInteger(holding) || holding < 0 || holding > HOLDING_SECONDS_MAX) return null;
  let leakageValue: number | null = null;
  if (r.leakageValue !== null && r.leakageValue !== undefined) {
    const v = decimal(r.leakageValue, 0, LEAKAGE_MAX, 4);
    if (v === undefined) return null;
    leakageValue = v;
  }
  let leakageUnit: string | null = null;
  if (r.leakageUnit !== null && r.leakageUnit !== undefined) {
    if (!cleanText(r.leakageUnit, LEAKAGE_UNIT_MAX)) return null;
    leakageUnit = r.leakageUnit === '' ? null : r.leakageUnit;
  }
  if ((leakageValue === null) !== (leakageUnit === null)) return null;
  if (typeof testedAt !== 'string' || !CANONICAL_TIME.test(testedAt)) return null;
  const ms = Date.parse(testedAt);
  if (!(ms >= 0) || ms > now + TESTED_AT_SKEW_MS || new Date(ms).toISOString() !== testedAt) return null;
  const operator = r.operator === undefined ? '' : r.operator;
  if (!cleanText(operator, OPERATOR_MAX)) return null;
  let instrumentId: string | null = null;
  if (r.instrumentId !== null && r.instrumentId !== undefined) {
    if (!cleanText(r.instrumentId, INSTRUMENT_ID_MAX)) return null;
    instrumentId = r.instrumentId === '' ? null : r.instrumentId;
  }
  let fluidTemperature: number | null = null;
  if (r.fluidTemperature !== null && r.fluidTemperature !== undefined) {
    const v = decimal(r.fluidTemperature, FLUID_TEMPERATURE_MIN, FLUID_TEMPERATURE_MAX, 1);
    if (v === undefined) return null;
    fluidTemperature = v;
  }
  let side: TestSide | null = null;
  if (r.side !== null && r.side !== undefined && r.side !== '') {
    if (typeof r.side !== 'string' || !sides.has(r.side)) return null;
    side = r.side as TestSide;
  }
  const samples = r.samples === undefined ? [] : r.samples;
  if (!samplesOk(samples)) return null;
  return {
    recordId,
    serial,
    testType,
    medium,
    testPressure,
    holdingSeconds: holding,
    leakageValue,
    leakageUnit,
    result,
    testedAt,
    operator,
    instrumentId,
    fluidTemperature,
    side,
    samples,
  } as TestRecordValues;
}

// A CSV cell's number in the form the generators and spreadsheets write it: digits, at most one decimal point
// with digits after it, nothing else (no sign, spaces, comma or exponent). Number() of such text is the
// number decimalField and integerField read from it; any other text goes to zod.
const PLAIN_DECIMAL = /^\d{1,15}(?:\.\d{1,15})?$/;
const PLAIN_INTEGER = /^\d{1,9}$/;

/**
 * The CSV import's shortcut: the values testRecordInput would give for one row of cells (the import's
 * `input`, every cell a string, a missing column undefined), when every cell is canonical; otherwise null
 * and zod decides (and names the errors). The numbers are read as zod reads them and the rest is fastRecord's
 * check; test/machine-data-fast-path.test.ts holds both to the schema.
 */
export function fastCsvRecord(cells: Readonly<Record<string, string | undefined>>, now = Date.now()): TestRecordValues | null {
  const { testPressure, holdingSeconds, leakageValue, fluidTemperature } = cells;
  if (testPressure === undefined || !PLAIN_DECIMAL.test(testPressure)) return null;
  if (holdingSeconds === undefined || !PLAIN_INTEGER.test(holdingSeconds)) return null;
  let leak: number | null = null;
  if (leakageValue !== undefined && leakageValue !== '') {
    if (!PLAIN_DECIMAL.test(leakageValue)) return null;
    leak = Number(leakageValue);
  }
  let fluid: number | null = null;
  if (fluidTemperature !== undefined && fluidTemperature !== '') {
    if (!PLAIN_DECIMAL.test(fluidTemperature)) return null;
    fluid = Number(fluidTemperature);
  }
  return fastRecord(
    {
      recordId: cells.recordId,
      serial: cells.serial,
      testType: cells.testType,
      medium: cells.medium,
      testPressure: Number(testPressure),
      holdingSeconds: Number(holdingSeconds),
      leakageValue: leak,
      leakageUnit: cells.leakageUnit === undefined ? null : cells.leakageUnit,
      result: cells.result,
      testedAt: cells.testedAt,
      operator: cells.operator,
      instrumentId: cells.instrumentId,
      fluidTemperature: fluid,
      side: cells.side,
    },
    now,
  );
}
