/**
 * Which combinations of language, width and theme a browser test runs. Each factor matters on its own
 * (the language for wording and overflow, the width for layout, the theme for contrast under axe), and no
 * failure seen so far needed two of them together; so a test covers every pair of values (pairwise) rather
 * than every combination: each language at each width, each language in each theme, each width in each
 * theme. `E2E_EVERY_LOOK=1` runs every combination, for screenshots of all of them
 * (docs/decisions/0048-ci-under-thirty-minutes.md).
 */
export type Lang = 'en' | 'zh';
export type Theme = 'light' | 'dark';
export type Width = 390 | 1440;

const every = process.env.E2E_EVERY_LOOK === '1';

/** Language × width: all four pairs (both factors matter together: a Chinese label on a phone). */
export function langWidths(): Array<[Lang, Width]> {
  return [
    ['en', 1440],
    ['en', 390],
    ['zh', 1440],
    ['zh', 390],
  ];
}

/** Language × theme: each language once and each theme once, or all four with E2E_EVERY_LOOK. */
export function langThemes(): Array<[Lang, Theme]> {
  return every
    ? [
        ['en', 'light'],
        ['en', 'dark'],
        ['zh', 'light'],
        ['zh', 'dark'],
      ]
    : [
        ['en', 'light'],
        ['zh', 'dark'],
      ];
}

/** Language × width × theme: the four rows that hold every pair of two factors (an L4 array), or all eight. */
export function langWidthThemes(): Array<[Lang, Width, Theme]> {
  if (every) return langWidths().flatMap(([l, w]) => (['light', 'dark'] as const).map((t): [Lang, Width, Theme] => [l, w, t]));
  return [
    ['en', 390, 'light'],
    ['en', 1440, 'dark'],
    ['zh', 390, 'dark'],
    ['zh', 1440, 'light'],
  ];
}

/**
 * The widths a test runs at in `lang`: English at `english`, Chinese at the other width, or both with
 * E2E_EVERY_LOOK. Two tests that pass opposite widths cover each language at each width between them.
 */
export function widthsFor(lang: Lang, english: Width): Width[] {
  if (every) return [1440, 390];
  const other: Width = english === 1440 ? 390 : 1440;
  return [lang === 'en' ? english : other];
}
