/**
 * Whether the visitor's look is the one the prerendered pages are drawn in (light, default skin): only then
 * can React hydrate them (it does not correct class names when it hydrates). For anyone else the prerendered
 * styles are removed before the styling library starts: it would otherwise adopt them, and their page-wide
 * rules (the light body colour) would outrank the chosen look's (docs/decisions/0022-prerendered-first-screens.md).
 */
import { DEFAULT_PREFERENCES } from './preferences-model';
import { readStored } from './storage';

export function looksLikeThePrerender(): boolean {
  const theme = readStored('theme') ?? DEFAULT_PREFERENCES.theme;
  const skin = readStored('skin') ?? DEFAULT_PREFERENCES.skin;
  const light = theme === 'light' || (theme === 'system' && !window.matchMedia('(prefers-color-scheme: dark)').matches);
  return light && skin === DEFAULT_PREFERENCES.skin;
}

/** Removes the prerendered page's styles, and hides its markup until the app draws the page afresh. */
export function dropPrerenderedStyles(container: HTMLElement): void {
  const styles = document.querySelectorAll('style[data-emotion]');
  if (styles.length === 0) return;
  for (const style of styles) style.remove();
  container.style.visibility = 'hidden';
  // Shown again once the app has drawn into it (its first commit replaces the prerendered markup).
  new MutationObserver((_, observer) => {
    container.style.visibility = '';
    observer.disconnect();
  }).observe(container, { childList: true });
}
