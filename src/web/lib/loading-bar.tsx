/**
 * The top loading bar of docs/product.md §8: starts at 10 with buffer 20, advances by a random step every
 * 800 ms, holds at 82 while loading, jumps to 100 when loading resolves and resets 300 ms later.
 */
import LinearProgress from '@mui/material/LinearProgress';
import { useTranslation } from 'react-i18next';
import { useLoadingBar } from './loading-bar-state';

export { tick, useLoadingBar, type LoadingBarState } from './loading-bar-state';

export function LoadingBar({ loading }: { loading: boolean }) {
  const { t } = useTranslation();
  const state = useLoadingBar(loading);
  if (!state.visible) return null;
  return (
    <LinearProgress
      variant="buffer"
      value={state.value}
      valueBuffer={state.buffer}
      aria-label={t('app.loading')}
      data-testid="loading-bar"
      sx={{ position: 'fixed', top: 0, left: 0, right: 0, zIndex: (theme) => theme.zIndex.tooltip + 1, height: 3 }}
    />
  );
}
