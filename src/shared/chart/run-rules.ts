/**
 * Run rules of a control chart: the Western Electric zone rules 1–4 and Nelson's eight tests, read on the
 * points in time order against a centre line and σ that come from elsewhere (a baseline period), never from
 * the points being judged. Sources (docs/standards-sources.md): Nelson's rules as Micromine's Shewhart
 * chart help and Sepasoft's SPC signals list them (after L. S. Nelson, Journal of Quality Technology,
 * October 1984); the Western Electric zone rules as Sepasoft lists them.
 *
 * A break is marked on the point that completes the pattern, as SPC software marks it: the third of
 * "2 of 3", the ninth of "9 in a row". A point may break several rules.
 */

export const RULE_SETS = ['western-electric', 'nelson'] as const;
export type RuleSet = (typeof RULE_SETS)[number];

export const RUN_RULES = ['we1', 'we2', 'we3', 'we4', 'n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7', 'n8'] as const;
export type RunRule = (typeof RUN_RULES)[number];

export const RULES_OF: Record<RuleSet, readonly RunRule[]> = {
  'western-electric': ['we1', 'we2', 'we3', 'we4'],
  nelson: ['n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7', 'n8'],
};

export interface RuleBreak {
  /** the index of the point that completes the pattern */
  index: number;
  rules: RunRule[];
}

/** `k` of the last `of` points (ending at i, which must be one of them) satisfy `test`. */
function kOf(z: readonly number[], i: number, k: number, of: number, test: (v: number) => boolean): boolean {
  if (i + 1 < of || !test(z[i]!)) return false;
  let n = 0;
  for (let j = i - of + 1; j <= i; j++) if (test(z[j]!)) n++;
  return n >= k;
}

/** The last `run` points (ending at i) all satisfy `test`. */
function all(z: readonly number[], i: number, run: number, test: (v: number, j: number) => boolean): boolean {
  if (i + 1 < run) return false;
  for (let j = i - run + 1; j <= i; j++) if (!test(z[j]!, j)) return false;
  return true;
}

/** Same side for `run` points in a row (a point on the centre line is on neither side). */
const sameSide = (z: readonly number[], i: number, run: number) => all(z, i, run, (v) => v > 0) || all(z, i, run, (v) => v < 0);

/** `run` points in a row each higher (or each lower) than the one before: `run - 1` steps one way. */
function trend(v: readonly number[], i: number, run: number): boolean {
  if (i + 1 < run) return false;
  let up = true;
  let down = true;
  for (let j = i - run + 2; j <= i; j++) {
    if (!(v[j]! > v[j - 1]!)) up = false;
    if (!(v[j]! < v[j - 1]!)) down = false;
  }
  return up || down;
}

/** `run` points in a row alternating up and down (each step reverses the one before). */
function alternating(v: readonly number[], i: number, run: number): boolean {
  if (i + 1 < run) return false;
  for (let j = i - run + 3; j <= i; j++) {
    const before = v[j - 1]! - v[j - 2]!;
    const now = v[j]! - v[j - 1]!;
    if (!(before * now < 0)) return false;
  }
  return true;
}

const CHECKS: Record<RunRule, (z: readonly number[], v: readonly number[], i: number) => boolean> = {
  we1: (z, _, i) => Math.abs(z[i]!) > 3,
  we2: (z, _, i) => kOf(z, i, 2, 3, (x) => x > 2) || kOf(z, i, 2, 3, (x) => x < -2),
  we3: (z, _, i) => kOf(z, i, 4, 5, (x) => x > 1) || kOf(z, i, 4, 5, (x) => x < -1),
  we4: (z, _, i) => sameSide(z, i, 8),
  n1: (z, _, i) => Math.abs(z[i]!) > 3,
  n2: (z, _, i) => sameSide(z, i, 9),
  n3: (_, v, i) => trend(v, i, 6),
  n4: (_, v, i) => alternating(v, i, 14),
  n5: (z, _, i) => kOf(z, i, 2, 3, (x) => x > 2) || kOf(z, i, 2, 3, (x) => x < -2),
  n6: (z, _, i) => kOf(z, i, 4, 5, (x) => x > 1) || kOf(z, i, 4, 5, (x) => x < -1),
  n7: (z, _, i) => all(z, i, 15, (x) => Math.abs(x) < 1),
  n8: (z, _, i) => all(z, i, 8, (x) => Math.abs(x) > 1) && !sameSide(z, i, 8),
};

/**
 * The points of `values` (in time order) that break a rule of `set`, with the rules each breaks, against
 * `centre` and `sigma`. Nothing breaks without a positive σ. A point that is the mean of several tests
 * (`counts`, a time bucket's n) is judged as a subgroup mean, against σ / √n (Shewhart's X̄ chart with
 * subgroups of varying size): a bucket of 25 tests shifted by half a σ of single tests is 2.5 σ of its mean.
 */
export function ruleBreaks(
  values: readonly number[],
  centre: number,
  sigma: number,
  set: RuleSet,
  counts?: readonly number[],
): RuleBreak[] {
  if (!(sigma > 0) || !Number.isFinite(centre)) return [];
  const z = values.map((v, i) => ((v - centre) / sigma) * Math.sqrt(Math.max(1, counts?.[i] ?? 1)));
  const rules = RULES_OF[set];
  const out: RuleBreak[] = [];
  for (let i = 0; i < values.length; i++) {
    const broken = rules.filter((r) => CHECKS[r](z, values, i));
    if (broken.length) out.push({ index: i, rules: broken });
  }
  return out;
}
