/**
 * What the screen specs share: the texts of the message catalogue as a page shows them, and the axe check
 * every screenshot is held to.
 */
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { keepScreenshot } from './shots';

export type Language = 'en' | 'zh';
type Tree = { [key: string]: string | Tree };

const read = (lang: Language, ns: string) =>
  JSON.parse(fs.readFileSync(path.join('src', 'shared', 'i18n', lang, `${ns}.json`), 'utf8')) as Tree;

/**
 * `tr(lang, 'searches.title', params)` for the named catalogue files (the first key segment is the file's
 * name, as in the app), with `{{name}}` filled in; an unknown key fails the test instead of matching nothing.
 */
export function translator(namespaces: string[]) {
  const catalogues: Record<Language, Tree> = {
    en: Object.fromEntries(namespaces.map((ns) => [ns, read('en', ns)])),
    zh: Object.fromEntries(namespaces.map((ns) => [ns, read('zh', ns)])),
  };
  return (lang: Language, key: string, params: Record<string, unknown> = {}): string => {
    let node: string | Tree | undefined = catalogues[lang];
    for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
    if (typeof node !== 'string') throw new Error(`no text ${key} in ${lang}`);
    return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(params[name] ?? ''));
  };
}

/**
 * Until the screen has settled, as the page itself tells: its fonts are in, nothing on it is busy (the
 * server's frame still waiting for the app shows its progress bar, a list or chart fetching says so with
 * `aria-busy`, data still to come shows a skeleton, a navigation the loading bar) and no transition or
 * animation runs (a dialog fading in, a row's highlight), all of it unchanged for 150 ms. Waiting for the
 * network to be idle for 500 ms and a fixed pause after it took 0.9–1.6 s a screen; this takes what the
 * screen needs (docs/decisions/0048-ci-under-thirty-minutes.md). An animation that repeats forever (a
 * progress indicator's) does not count as running: it never ends, and the frame's bar is looked for itself.
 */
export async function untilSettled(page: Page): Promise<void> {
  const since = `settled-${Date.now()}-${Math.random()}`;
  await page.waitForFunction(
    (key) => {
      const marks = window as unknown as Record<string, number | undefined>;
      const busy =
        document.fonts.status !== 'loaded' ||
        document.querySelector('.trc-shell-progress, [aria-busy="true"], .MuiSkeleton-root, [data-testid="loading-bar"]') !== null ||
        document.getAnimations().some((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity);
      if (busy) {
        marks[key] = undefined;
        return false;
      }
      marks[key] ??= performance.now();
      return performance.now() - marks[key] >= 150;
    },
    since,
    { polling: 50 },
  );
}

/** No serious or critical WCAG 2.1 A/AA violation on the page as it is now (soft: the test goes on). */
export async function expectAxeClean(page: Page, label: string): Promise<void> {
  // label-content-name-mismatch (WCAG 2.5.3, Label in Name) is one of axe's experimental rules, off unless named:
  // a control's accessible name must contain the text it shows, or speech users cannot say what they see.
  // (options() replaces every option, so it comes before withTags().)
  // Legacy mode runs axe.run() in the page itself. The default runs each frame's part there and then opens a
  // new page to put the parts together: 0.6–0.7 s of each check's 1.2–1.9 s on a quiet 2-core machine (docs/decisions/0048-ci-under-thirty-minutes.md), and
  // a renderer process started and stopped for every screen. No screen of the app has a frame, and both modes
  // report the same violations and passes on a staff form with a faint paragraph, a bare input and an empty
  // button added (the check that compared them is not kept: it would hold axe's modes to each other).
  const result = await new AxeBuilder({ page })
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .setLegacyMode(true)
    .analyze();
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect
    .soft(
      bad.map(
        (v) =>
          `${v.id}: ${v.nodes
            .map((n) => n.target.join(' '))
            .slice(0, 3)
            .join(', ')}`,
      ),
      label,
    )
    .toEqual([]);
}

/**
 * `shot(page, name, lang)` for a spec whose screenshots go to `outDir`: a full-page screenshot named by
 * screen, language and viewport width, then the axe check of the same page.
 */
export function screenshotter(outDir: string) {
  return async function shot(page: Page, name: string, lang: Language): Promise<void> {
    const width = page.viewportSize()?.width ?? 1440;
    await untilSettled(page);
    await keepScreenshot(page, { path: path.join(outDir, `${name}-${lang}-${width}.png`), fullPage: true });
    await expectAxeClean(page, `${name} ${lang} ${width}`);
  };
}
