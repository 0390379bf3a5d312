import { describe, expect, it } from 'vitest';
import { namedLeakageUnit } from './leakage-units';

describe('namedLeakageUnit', () => {
  it('names the units the interface translates, however the bench spelt them', () => {
    for (const u of ['drops/min', 'Drops/min', 'drop/min', 'drops per min', ' drops / min '])
      expect(namedLeakageUnit(u), u).toBe('drops/min');
    for (const u of ['bubbles/min', 'Bubble/min', 'bubbles per min']) expect(namedLeakageUnit(u), u).toBe('bubbles/min');
    for (const u of ['mm3/s', 'mm³/s', 'MM3 / S']) expect(namedLeakageUnit(u), u).toBe('mm3/s');
  });

  it('leaves other units as written: a convertible one carries its own number', () => {
    for (const u of ['ml/min', 'cc/min', 'l/h', 'ppm', '', null, undefined]) expect(namedLeakageUnit(u), String(u)).toBeNull();
  });
});
