/**
 * The top loading bar's motion (docs/product.md §8): starts at 10 with buffer 20, advances by a random step
 * every 800 ms, holds at 82 while loading, jumps to 100 when loading resolves and resets 300 ms later.
 * Apart from the MUI bar (loading-bar.tsx), so the public page's plain bar uses it without MUI.
 */
import { useEffect, useRef, useState } from 'react';
import { LOADING_BAR } from './constants';

export interface LoadingBarState {
  visible: boolean;
  value: number;
  buffer: number;
}

const HIDDEN: LoadingBarState = { visible: false, value: 0, buffer: 0 };

/** The next value of one tick: a random advance that never passes the hold mark. */
export function tick(value: number, random: number = Math.random()): number {
  const step = (LOADING_BAR.hold - value) * (0.1 + 0.4 * random);
  return Math.min(LOADING_BAR.hold, value + Math.max(0.5, step));
}

/** Drives the bar from `loading`: true starts it, false finishes it. */
export function useLoadingBar(loading: boolean): LoadingBarState {
  const [state, setState] = useState<LoadingBarState>(HIDDEN);
  const timers = useRef<{ interval?: ReturnType<typeof setInterval>; reset?: ReturnType<typeof setTimeout> }>({});

  useEffect(() => {
    const t = timers.current;
    if (loading) {
      clearTimeout(t.reset);
      setState({ visible: true, value: LOADING_BAR.start, buffer: LOADING_BAR.buffer });
      t.interval = setInterval(() => {
        setState((s) => {
          const value = tick(s.value);
          return { visible: true, value, buffer: Math.min(100, Math.max(s.buffer, value + 10)) };
        });
      }, LOADING_BAR.tickMs);
      return () => clearInterval(t.interval);
    }
    setState((s) => (s.visible ? { visible: true, value: 100, buffer: 100 } : s));
    t.reset = setTimeout(() => setState(HIDDEN), LOADING_BAR.resetMs);
    return () => clearTimeout(t.reset);
  }, [loading]);

  return state;
}
