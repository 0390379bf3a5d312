import { describe, expect, it } from 'vitest';
import { findingsOf, judgeHeat, limitsOf } from './material-limits';

const wcb = limitsOf('ASTM A216', 'wcb');

describe('material limits', () => {
  it('finds the cited grades whatever the case and spacing, and no others', () => {
    expect(wcb?.tensileStrength).toEqual({ min: 485, max: 655 });
    expect(limitsOf('astm  a351', 'CF8M')?.chemistry.Cr).toEqual({ min: 18, max: 21 });
    expect(limitsOf('JIS G5501', 'FC250')).toBeNull();
  });

  it('passes a WCB heat inside every limit and names each value outside one', () => {
    const inside = {
      chemistry: { C: 0.24, Mn: 0.85, P: 0.018, S: 0.012, Si: 0.45 },
      tensileStrength: 512,
      yieldStrength: 298,
      elongation: 26,
    };
    expect(findingsOf(wcb, inside)).toEqual([]);
    // the bounds themselves conform: C 0.30 and Rm 655 are within
    expect(findingsOf(wcb, { ...inside, chemistry: { C: 0.3 }, tensileStrength: 655 })).toEqual([]);
    expect(findingsOf(wcb, { ...inside, chemistry: { C: 0.31, Mn: 0.9 }, tensileStrength: 470, elongation: 21 })).toEqual([
      { property: 'C', value: 0.31, min: null, max: 0.3 },
      { property: 'tensileStrength', value: 470, min: 485, max: 655 },
      { property: 'elongation', value: 21, min: 22, max: null },
    ]);
  });

  it('judges nothing for a material without cited limits, and elements it does not bound', () => {
    expect(findingsOf(null, { chemistry: { C: 9 }, tensileStrength: 1, yieldStrength: 1, elongation: 1 })).toEqual([]);
    expect(findingsOf(wcb, { chemistry: { Nb: 5 }, tensileStrength: null, yieldStrength: null, elongation: null })).toEqual([]);
  });

  it('holds a heat with a finding whatever was asked, and never releases one without', () => {
    const over = { chemistry: { C: 0.31 }, tensileStrength: null, yieldStrength: null, elongation: null };
    const inside = { ...over, chemistry: { C: 0.2 } };
    expect(judgeHeat(wcb, over, 'released').status).toBe('hold');
    expect(judgeHeat(wcb, over, 'released').findings).toHaveLength(1);
    expect(judgeHeat(wcb, inside, 'hold')).toEqual({ findings: [], status: 'hold' });
    expect(judgeHeat(wcb, inside, 'released')).toEqual({ findings: [], status: 'released' });
  });
});
