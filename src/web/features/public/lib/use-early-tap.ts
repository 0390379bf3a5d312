/**
 * A button of the prerendered /search tapped before the page was hydrated (src/web/lib/early-tap.ts, kept
 * free of React because the entry installs it): acted on once as its component starts.
 */
import { useEffect } from 'react';
import { takeEarlyTap } from '../../../lib/early-tap';

/** Runs `act` once as the component starts when its button `name` was tapped before the page was hydrated. */
export function useEarlyTap(name: string, act: () => void): void {
  useEffect(() => {
    if (takeEarlyTap(document, name)) act();
    // Only as the page starts: what `act` closes over then is what the visitor tapped.
  }, []);
}
