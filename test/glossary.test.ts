/** One vocabulary: texts that mean the same term carry the same Chinese text everywhere (src/shared/i18n/glossary.ts). */
import { describe, expect, it } from 'vitest';
import { catalogues } from '../src/shared/i18n/index';
import { CHINESE_VARIANTS, ENGLISH_SYNONYMS, type Term } from '../src/shared/i18n/glossary';

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
    for (const { key: k, zh: text } of all) {
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
});
