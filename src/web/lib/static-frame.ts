/**
 * True while the app is taking over a screen drawn at build time (the /login screen,
 * src/web/prerender/render.tsx, hydrated by src/web/app/main-app.tsx): inside a StaticFrameContext, in the
 * prerender and during React's hydration pass. Controls that can only act once the app runs (the sign-in
 * button, the language switch) show as disabled until then instead of taking a click that would do nothing;
 * the fields take typing from the start, and React keeps it when it hydrates
 * (docs/decisions/0027-login-hydrated.md).
 */
import { createContext, useContext, useSyncExternalStore } from 'react';

export const StaticFrameContext = createContext(false);

const noSubscription = () => () => undefined;

/**
 * false once React runs the page: the server snapshot (true) is what renderToString and the hydration pass
 * see, so both draw the same markup; React renders again with the client snapshot right after hydrating.
 */
function useBeforeStart(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => false,
    () => true,
  );
}

export function useStaticFrame(): boolean {
  const inFrame = useContext(StaticFrameContext);
  const beforeStart = useBeforeStart();
  return inFrame && beforeStart;
}
