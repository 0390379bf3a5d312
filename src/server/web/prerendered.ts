/** Where the build writes the prerendered first screens (scripts/vite-prerender.ts), relative to dist/web. */
import type { Language } from '../../shared/i18n/index';

export const PRERENDERED_SCREENS = ['search', 'login'] as const;
export type PrerenderedScreen = (typeof PRERENDERED_SCREENS)[number];

export function prerenderedFile(screen: PrerenderedScreen, language: Language): string {
  return `prerendered/${screen}.${language}.html`;
}
