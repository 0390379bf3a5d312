/**
 * True inside a screen drawn at build time that the app replaces rather than hydrates (the /login frame,
 * src/web/prerender/render.tsx): its controls cannot act before the app starts, so they show as disabled
 * instead of taking a click or typing that would be lost (docs/decisions/0022-prerendered-first-screens.md).
 */
import { createContext, useContext } from 'react';

export const StaticFrameContext = createContext(false);

export function useStaticFrame(): boolean {
  return useContext(StaticFrameContext);
}
