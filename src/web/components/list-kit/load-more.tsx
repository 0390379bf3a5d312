/**
 * Under an "All" table: how many rows are shown, and a sentinel that fetches the next chunk on scroll.
 * Put it right after the table: `<LoadMore more={list.more} />` (ListView does). Renders nothing on a
 * numbered page.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../format';
import type { MoreRows } from './use-list-query';

export function LoadMore({ more }: { more: MoreRows }) {
  const { t, i18n } = useTranslation();
  const sentinel = useRef<HTMLDivElement | null>(null);
  const { active, hasMore, loadMore } = more;

  useEffect(() => {
    const el = sentinel.current;
    if (!active || !hasMore || !el) return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) loadMore();
      },
      { rootMargin: '600px 0px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [active, hasMore, loadMore]);

  if (!active || more.total === 0) return null;
  return (
    <Box ref={sentinel} sx={{ py: 2, display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1 }}>
      <Typography variant="body2" color="text.secondary" role="status" data-testid="rows-loaded">
        {t('table.loaded', { loaded: formatNumber(i18n.language, more.loaded, 0), total: formatNumber(i18n.language, more.total, 0) })}
      </Typography>
      {more.loading && <LinearProgress sx={{ width: 200 }} aria-label={t('app.loading')} />}
      {hasMore && !more.loading && (
        <Button size="small" onClick={loadMore}>
          {t('table.loadMore')}
        </Button>
      )}
    </Box>
  );
}
