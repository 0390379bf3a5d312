/**
 * The proof-of-work of a report request, started as soon as step 2 shows so that it is usually done by the
 * time the visitor has read the terms and typed an address. A challenge is single use: after a submission
 * (accepted or refused) `renew` fetches and solves a fresh one.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchChallenge } from '../api';
import { solveChallenge } from './proof-of-work';

export type ChallengeState = 'solving' | 'solved' | 'failed';

export function useChallenge() {
  const [state, setState] = useState<ChallengeState>('solving');
  const current = useRef<Promise<string | null> | null>(null);
  const abort = useRef<AbortController | null>(null);

  const renew = useCallback(() => {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setState('solving');
    const solution = fetchChallenge()
      .then((c) => solveChallenge(c, controller.signal))
      .catch(() => null);
    current.current = solution;
    void solution.then((s) => {
      if (!controller.signal.aborted) setState(s ? 'solved' : 'failed');
    });
  }, []);

  useEffect(() => {
    renew();
    return () => abort.current?.abort();
  }, [renew]);

  /** The solution to send (waits for the solving under way); null when it could not be had. */
  const take = useCallback(async () => {
    const s = await current.current;
    return s ?? null;
  }, []);

  return { state, take, renew };
}
