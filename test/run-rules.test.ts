/**
 * The control charts' run rules (src/shared/chart/run-rules.ts) on worked examples: points in σ units
 * around a centre of 10 with σ 2, so each value is 10 + 2·z and each rule's pattern is written out.
 */
import { describe, expect, it } from 'vitest';
import { ruleBreaks, type RuleSet } from '../src/shared/chart/run-rules';

const CENTRE = 10;
const SIGMA = 2;
const values = (zs: number[]) => zs.map((z) => CENTRE + SIGMA * z);
const breaks = (zs: number[], set: RuleSet) => ruleBreaks(values(zs), CENTRE, SIGMA, set);
/** index → rules, for the points that break any */
const marks = (zs: number[], set: RuleSet) => Object.fromEntries(breaks(zs, set).map((b) => [b.index, b.rules]));

describe('Western Electric rules', () => {
  it('1: one point beyond 3σ, either side; 3σ itself is within', () => {
    expect(marks([0, 3.2, 0, -3.5, 3], 'western-electric')).toEqual({ 1: ['we1'], 3: ['we1'] });
  });

  it('2: two of three beyond 2σ on the same side, marked on the one completing it', () => {
    expect(marks([0.5, 2.5, 0.3, 2.2, 0], 'western-electric')).toEqual({ 3: ['we2'] });
    // On opposite sides it is not the rule.
    expect(marks([2.5, 0, -2.5, 0], 'western-electric')).toEqual({});
  });

  it('3: four of five beyond 1σ on the same side', () => {
    expect(marks([1.5, 1.2, 0.2, 1.8, 1.1], 'western-electric')).toEqual({ 4: ['we3'] });
    expect(marks([-1.5, -1.2, -0.2, -1.8, -1.1], 'western-electric')).toEqual({ 4: ['we3'] });
    expect(marks([1.5, 1.2, 0.2, 0.8, 1.1], 'western-electric')).toEqual({});
  });

  it('4: eight in a row on the same side, each further point too', () => {
    const zs = [0.2, 0.4, 0.1, 0.6, 0.3, 0.5, 0.2, 0.7, 0.1, -0.3];
    expect(marks(zs, 'western-electric')).toEqual({ 7: ['we4'], 8: ['we4'] });
    // A point on the centre line ends the run.
    expect(marks([0.2, 0.4, 0.1, 0, 0.3, 0.5, 0.2, 0.7], 'western-electric')).toEqual({});
  });

  it('a drift reads as rules 3 and 4 before any point passes 3σ', () => {
    const drift = [-0.3, 0.2, 0.4, 0.9, 1.2, 1.1, 1.4, 1.6, 1.5, 1.9];
    const found = breaks(drift, 'western-electric');
    expect(found.map((b) => b.index)).toEqual([7, 8, 9]);
    expect(found.flatMap((b) => b.rules)).not.toContain('we1');
    expect(found[0]!.rules).toEqual(['we3']);
  });
});

describe('Nelson rules', () => {
  it('1 as Western Electric 1, and 5 and 6 as its 2 and 3', () => {
    expect(marks([0, 3.2, 0], 'nelson')).toEqual({ 1: ['n1'] });
    expect(marks([0.5, 2.5, 0.3, 2.2, 0], 'nelson')).toEqual({ 3: ['n5'] });
    expect(marks([1.5, 1.2, 0.2, 1.8, 1.1], 'nelson')).toEqual({ 4: ['n6'] });
  });

  it('2: nine in a row on the same side (eight is not enough)', () => {
    expect(marks([0.2, 0.4, 0.1, 0.6, 0.3, 0.5, 0.2, 0.7, -0.1], 'nelson')).toEqual({});
    expect(marks([-0.2, -0.4, -0.1, -0.6, -0.3, -0.5, -0.2, -0.7, -0.1], 'nelson')).toEqual({ 8: ['n2'] });
  });

  it('3: six points in a row increasing or decreasing; a tie ends it', () => {
    expect(marks([-0.5, -0.3, -0.1, 0.1, 0.2, 0.4, 0.3], 'nelson')).toEqual({ 5: ['n3'] });
    expect(marks([0.5, 0.4, 0.3, 0.2, 0.1, -0.1], 'nelson')).toEqual({ 5: ['n3'] });
    expect(marks([-0.5, -0.3, -0.3, 0.1, 0.2, 0.4], 'nelson')).toEqual({});
  });

  it('4: fourteen points in a row alternating up and down', () => {
    const saw = Array.from({ length: 14 }, (_, i) => (i % 2 === 0 ? 0.3 : -0.3));
    expect(marks(saw, 'nelson')).toEqual({ 13: ['n4'] });
    expect(marks(saw.slice(0, 13), 'nelson')).toEqual({});
  });

  it('7: fifteen in a row within 1σ, on both sides', () => {
    const hugging = Array.from({ length: 15 }, (_, i) => (i % 3 === 0 ? 0.5 : i % 3 === 1 ? -0.4 : 0.1));
    expect(marks(hugging, 'nelson')).toEqual({ 14: ['n7'] });
    expect(marks([...hugging.slice(0, 14), 1.2], 'nelson')).toEqual({});
  });

  it('8: eight in a row beyond 1σ on both sides, none within', () => {
    const mixture = [1.5, -1.4, 1.3, -1.6, 1.2, -1.5, 1.4, -1.3];
    const m = marks(mixture, 'nelson');
    expect(m[7]).toContain('n8');
    // All on one side is rule 2's and 6's business, not 8's.
    expect(marks([1.5, 1.4, 1.3, 1.6, 1.2, 1.5, 1.4, 1.3], 'nelson')[7]).not.toContain('n8');
  });

  it('reads nothing without a positive σ', () => {
    expect(ruleBreaks([1, 2, 30], 10, 0, 'nelson')).toEqual([]);
    expect(ruleBreaks([1, 2, 30], Number.NaN, 1, 'nelson')).toEqual([]);
  });
});

describe('a point that is the mean of several tests', () => {
  it('is judged against σ / √n: a bucket of 25 tests half a σ off breaks rule 1, a single test does not', () => {
    // 0.7 σ of single tests: z = 0.7 for one test, 0.7 × √25 = 3.5 for the mean of 25.
    expect(ruleBreaks([0, 0.7], 0, 1, 'western-electric')).toEqual([]);
    expect(ruleBreaks([0, 0.7], 0, 1, 'western-electric', [25, 25])).toEqual([{ index: 1, rules: ['we1'] }]);
    // A mean of 4 at 1.2 σ is 2.4 σ of its mean: two of three beyond 2 σ with the next.
    expect(ruleBreaks([1.2, 0, 1.2], 0, 1, 'western-electric', [4, 1, 4])).toEqual([{ index: 2, rules: ['we2'] }]);
  });
});
