/**
 * A list a screen pages through ("Show more: 20 of 134"): a skeleton while the first page loads,
 * the error or the empty text, then one grid row per item that wraps to a card on a phone.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from './format';
import { errorMessage } from '../lib/errors';

interface RowListProps<T extends { id: string | number }> {
  query: UseInfiniteQueryResult<InfiniteData<{ items: T[]; total: number }>>;
  testId: string;
  /** catalogue keys: the text when there is nothing, and the "more" button's (with {{shown}} and {{total}}) */
  emptyKey: string;
  moreKey: string;
  /** the columns of a row from the md breakpoint up (one column below it) */
  columns: string;
  skeletonHeight: number;
  children: (item: T) => ReactNode;
}

export function RowList<T extends { id: string | number }>({
  query,
  testId,
  emptyKey,
  moreKey,
  columns,
  skeletonHeight,
  children,
}: RowListProps<T>) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  const total = query.data?.pages[0]?.total ?? 0;
  if (query.isPending) return <Skeleton variant="rounded" height={skeletonHeight} />;
  if (query.isError) return <Alert severity="error">{errorMessage(t, query.error)}</Alert>;
  if (items.length === 0) return <Typography color="text.secondary">{t(emptyKey)}</Typography>;
  return (
    <>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }} data-testid={testId}>
        {items.map((item, i) => (
          <Fragment key={item.id}>
            {i > 0 && <Divider component="li" aria-hidden />}
            <Box
              component="li"
              sx={{ py: 1.25, display: 'grid', gap: 0.5, gridTemplateColumns: { xs: '1fr', md: columns }, alignItems: 'center' }}
            >
              {children(item)}
            </Box>
          </Fragment>
        ))}
      </Box>
      {query.hasNextPage && (
        <Button sx={{ mt: 1 }} onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
          {t(moreKey, { shown: formatNumber(lang, items.length, 0), total: formatNumber(lang, total, 0) })}
        </Button>
      )}
    </>
  );
}
