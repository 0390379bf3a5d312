/**
 * The heat form sends what a mill certificate reports as text ("C 0.21, Mn 0.80", "510"); the API sends
 * numbers. One schema (heatInput) reads both to the same values, and refuses a malformed analysis under its
 * field.
 */
import { describe, expect, it } from 'vitest';
import { chemistryToText, heatInput } from '../src/shared/contract/materials';

const base = { number: 'H1', materialId: '6f1d7c1e-8a55-4a57-9a39-2f1c3b8e4d10', certificateType: '3.1' } as const;
const issues = (input: unknown) =>
  heatInput.safeParse(input).error?.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) ?? [];

describe('the heat form and the API read to the same values', () => {
  it('reads the analysis and the properties as text or as numbers alike', () => {
    const typed = heatInput.parse({
      ...base,
      properties: { chemistry: 'c 0.21, Mn=0.80；Si：0.45%\nCr 0.3', tensileStrength: '510', yieldStrength: '', elongation: '22,5' },
    });
    const sent = heatInput.parse({
      ...base,
      properties: { chemistry: { C: 0.21, Mn: 0.8, Si: 0.45, Cr: 0.3 }, tensileStrength: 510, yieldStrength: null, elongation: 22.5 },
    });
    expect(typed.properties).toEqual({
      chemistry: { C: 0.21, Mn: 0.8, Si: 0.45, Cr: 0.3 },
      tensileStrength: 510,
      yieldStrength: null,
      elongation: 22.5,
    });
    expect(sent.properties).toEqual(typed.properties);
    expect(heatInput.parse(base).properties).toEqual({ chemistry: {}, tensileStrength: null, yieldStrength: null, elongation: null });
  });

  it('shows a stored analysis as the form takes it back', () => {
    const text = chemistryToText({ C: 0.21, Mn: 0.8 });
    expect(text).toBe('C 0.21, Mn 0.8');
    expect(heatInput.parse({ ...base, properties: { chemistry: text } }).properties.chemistry).toEqual({ C: 0.21, Mn: 0.8 });
  });

  it('refuses a malformed analysis or property under its field', () => {
    for (const chemistry of ['C zero', 'C 0.2, C 0.3', 'Mn 140', '0.21 C'])
      expect(issues({ ...base, properties: { chemistry } }), chemistry).toEqual([
        { path: 'properties.chemistry', message: 'materials.validation.chemistry' },
      ]);
    expect(issues({ ...base, properties: { chemistry: { carbon: 1 } } })).toEqual([
      { path: 'properties.chemistry.carbon', message: 'materials.validation.element' },
    ]);
    expect(issues({ ...base, properties: { tensileStrength: 'strong' } })).toEqual([
      { path: 'properties.tensileStrength', message: 'validation.number' },
    ]);
    expect(issues({ ...base, properties: { elongation: 140 } })).toEqual([{ path: 'properties.elongation', message: 'validation.max' }]);
  });
});
