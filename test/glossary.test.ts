/** One vocabulary: texts that mean the same term carry the same Chinese text everywhere (src/shared/i18n/glossary.ts). */
import { describe, expect, it } from 'vitest';
import { catalogues } from '../src/shared/i18n/index';
import { CHINESE_VARIANTS, DECLARATION, ENGLISH_SYNONYMS, MAINLAND_WORDINGS, type Term } from '../src/shared/i18n/glossary';
import { FLUIDS } from '../src/shared/contract/products';
import { TEST_MEDIA } from '../src/shared/contract/machine-data';
import { TEST_TYPES } from '../src/shared/contract/test-types';

type Tree = { [key: string]: string | Tree };
const en = catalogues.en as Tree;
const zh = catalogues.zh as Tree;
const terms = en.terms as Record<Term, string>;
const zhTerms = zh.terms as Record<Term, string>;

/** Every text of both catalogues by path (path segments may hold dots, so paths are arrays). */
function* texts(a: Tree, b: Tree | undefined, path: string[] = []): Generator<{ key: string; en: string; zh: string }> {
  for (const [k, v] of Object.entries(a)) {
    const other = b?.[k];
    if (typeof v === 'string') yield { key: [...path, k].join('.'), en: v, zh: typeof other === 'string' ? other : '' };
    else yield* texts(v, typeof other === 'object' ? other : undefined, [...path, k]);
  }
}
const all = [...texts(en, zh)].filter((x) => !x.key.startsWith('terms.'));
const byKey = new Map(all.map((x) => [x.key, x]));
const get = (tree: 'en' | 'zh', key: string) => byKey.get(key)![tree];
const norm = (s: string) => s.trim().toLowerCase();
const checked = all;

describe('the glossary', () => {
  it('has a Chinese text for every term, and no two terms share an English text', () => {
    const names = Object.keys(terms) as Term[];
    for (const t of names) expect(zhTerms[t], t).toMatch(/\S/);
    expect(new Set(names.map((t) => norm(terms[t]))).size).toBe(names.length);
  });

  it('gives every text that says a term in English the glossary Chinese for it', () => {
    const meaning = new Map<string, Term>();
    for (const t of Object.keys(terms) as Term[]) {
      meaning.set(norm(terms[t]), t);
      for (const s of ENGLISH_SYNONYMS[t] ?? []) meaning.set(norm(s), t);
    }
    const wrong: string[] = [];
    for (const x of all) {
      const term = meaning.get(norm(x.en));
      if (term && x.zh !== zhTerms[term]) wrong.push(`${x.key}: "${x.zh}" should be "${zhTerms[term]}" (${term})`);
    }
    expect(wrong).toEqual([]);
  });

  it('never uses a retired Chinese wording of a term', () => {
    const found: string[] = [];
    for (const { key: k, zh: text } of checked) {
      for (const [term, variants] of Object.entries(CHINESE_VARIANTS))
        for (const v of variants ?? [])
          if (text.includes(v)) found.push(`${k}: "${text}" uses "${v}" for ${term} (${zhTerms[term as Term]})`);
    }
    expect(found).toEqual([]);
  });

  it('names first-pass yield and the test bench the same on the dashboard, the quality screen and the audit trail', () => {
    expect(get('zh', 'dashboard.cards.firstPass')).toBe('一次合格率');
    expect(get('zh', 'quality.cards.firstPass')).toBe('一次合格率');
    expect(get('zh', 'audit.entities.machine')).toBe('測試機台');
    expect(get('zh', 'quality.pareto.machine')).toBe('測試機台');
  });

  it('speaks Taiwan Chinese: no mainland wording, 聲明 only in the declaration of conformity', () => {
    const found: string[] = [];
    for (const { key, zh: text } of checked) {
      for (const { word, use } of MAINLAND_WORDINGS) if (text.includes(word)) found.push(`${key}: "${text}" uses ${word} (${use})`);
      if (text.replaceAll(DECLARATION, '').includes('聲明')) found.push(`${key}: "${text}" uses 聲明 (宣告)`);
    }
    expect(found).toEqual([]);
  });

  it('names each test, test medium and fluid the same on the screens and in the PDF', () => {
    for (const type of TEST_TYPES) {
      expect(get('zh', `reports.test.${type}`), type).toBe(`${get('zh', `machineScreens.testTypes.${type}`)}測試`);
    }
    for (const medium of TEST_MEDIA)
      expect(get('zh', `reports.medium.${medium}`), medium).toBe(get('zh', `machineScreens.media.${medium}`));
    for (const fluid of FLUIDS) {
      expect(get('zh', `reports.fluid.${fluid}`), fluid).toBe(get('zh', `products.fluids.${fluid}`));
      expect(get('zh', `search.fluids.${fluid}`), fluid).toBe(get('zh', `products.fluids.${fluid}`));
    }
    expect(get('zh', 'reports.fluid.gas')).toBe('氣體');
    expect(get('zh', 'reports.test.backseat')).toBe('倒密封測試');
    expect(get('zh', 'reports.test.air-seat')).toBe('氣密閥座測試');
    expect(get('zh', 'reports.field.connection')).toBe(get('zh', 'products.fields.connection'));
  });

  it('writes full-width punctuation between Chinese words (codes, URLs, numbers and placeholders aside)', () => {
    const HAN = '[\\p{Script=Han}）」、，。：；？！]';
    // ASCII , : ; ! ? or a sentence's full stop touching Chinese text; `.p12` or `1.5` is not a sentence's end.
    const ascii = new RegExp(`${HAN}\\s*[,:;!?]|[,:;!?]\\s*${HAN}|${HAN}\\.(?=\\s|$|${HAN})|\\.\\s+${HAN}`, 'u');
    const wrong: string[] = [];
    for (const { key, zh: text } of all) {
      const prose = text
        .replace(/\{\{[^}]*\}\}/g, 'x')
        .replace(/https?:\/\/\S+/g, 'url')
        // a serial followed by its tag, as typed: `序號,位號` names the input's own comma
        .replace(/序號,位號/g, '序號')
        // `...` as typed between two serials of a range
        .replace(/\.{2,}/g, 'x');
      if (ascii.test(prose)) wrong.push(`${key}: ${text}`);
    }
    expect(wrong).toEqual([]);
  });
});
