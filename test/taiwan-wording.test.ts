/**
 * Taiwan wording: every Chinese catalogue text (the glossary's terms included) goes through OpenCC's
 * Simplified-to-Taiwan-phrases conversion (`s2twp`: from `cn` to `twp`). A text in Traditional characters
 * and Taiwan usage comes out unchanged; a change is a Simplified character or a mainland wording (保存,
 * 發送, 查看, 前綴, 聯繫…), unless it is one of the rewrites kept with a reason in
 * src/shared/i18n/taiwan-wording-exceptions.ts.
 */
import * as OpenCC from 'opencc-js';
import { describe, expect, it } from 'vitest';
import { catalogues } from '../src/shared/i18n/index';
import { DECLARATION, MAINLAND_WORDINGS } from '../src/shared/i18n/glossary';
import { TAIWAN_WORDING_EXCEPTIONS } from '../src/shared/i18n/taiwan-wording-exceptions';

type Tree = { [key: string]: string | Tree };

function* texts(tree: Tree, path: string): Generator<{ key: string; text: string }> {
  for (const [k, v] of Object.entries(tree)) {
    if (typeof v === 'string') yield { key: `${path}${k}`, text: v };
    else yield* texts(v, `${path}${k}.`);
  }
}

const toTaiwan = OpenCC.Converter({ from: 'cn', to: 'twp' });
const zh = [
  ...texts(catalogues.zh as Tree, ''),
  ...MAINLAND_WORDINGS.map((w) => ({ key: `glossary: use for ${w.word}`, text: w.use })),
  { key: 'glossary: declaration', text: DECLARATION },
];

// Kept wordings are set aside (each as one private-use character) while the rest is converted; longer first,
// so that 文件類型 is set aside whole before 類型.
const kept = [...TAIWAN_WORDING_EXCEPTIONS].sort((a, b) => b.word.length - a.word.length);
const mark = (i: number) => String.fromCharCode(0xe000 + i);

/** The text as OpenCC writes it, the kept wordings left as they are. */
function converted(text: string): string {
  let out = kept.reduce((s, e, i) => s.replaceAll(e.word, mark(i)), text);
  out = toTaiwan(out);
  return kept.reduce((s, e, i) => s.replaceAll(mark(i), e.word), out);
}

describe('Chinese texts read as Taiwan usage (OpenCC s2twp)', () => {
  it('reads the catalogues (the glossary terms among them)', () => {
    expect(zh.length).toBeGreaterThan(1000);
    expect(zh.some((x) => x.key.startsWith('terms.'))).toBe(true);
  });

  it('changes no text, except the rewrites kept with a reason', () => {
    const changed = zh.filter((x) => converted(x.text) !== x.text).map((x) => `${x.key}: ${x.text} → ${toTaiwan(x.text)}`);
    expect(changed).toEqual([]);
  });

  it('keeps each exception for a reason, and only while some text needs it', () => {
    for (const e of TAIWAN_WORDING_EXCEPTIONS) {
      expect(e.reason.length, e.word).toBeGreaterThan(20);
      expect(toTaiwan(e.word), e.word).toBe(e.becomes);
      expect(
        zh.some((x) => x.text.includes(e.word)),
        `${e.word} → ${e.becomes} is no longer needed`,
      ).toBe(true);
    }
  });

  it('catches a mainland wording', () => {
    for (const text of ['保存設定', '發送郵件', '查看報告', '序號前綴', '請與我們聯繫']) expect(converted(text)).not.toBe(text);
  });
});
