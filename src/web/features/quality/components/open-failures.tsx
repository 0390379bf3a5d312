/**
 * The failures nobody retested: a list someone must act on. Each links to the unit's history (to see the
 * retest once it happens) and to the failed record. Rows wrap as cards on a phone; nothing scrolls sideways.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { formatDateTime, formatNumber } from '../../../components/format';
import { errorMessage } from '../../../lib/errors';
import { SerialLink } from '../../../components/serial-link';
import { testTypeLabel } from '../../../components/record-values';
import { useOpenFailures, type QualityRange } from '../api';

export function OpenFailures({ range }: { range: QualityRange }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const query = useOpenFailures(range);
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  const total = query.data?.pages[0]?.total ?? 0;
  if (query.isPending) return <Skeleton variant="rounded" height={80} />;
  if (query.isError) return <Alert severity="error">{errorMessage(t, query.error)}</Alert>;
  if (items.length === 0) return <Typography color="text.secondary">{t('quality.open.empty')}</Typography>;
  return (
    <>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }} data-testid="open-failures">
        {items.map((f, i) => (
          <Fragment key={f.id}>
            {i > 0 && <Divider component="li" aria-hidden />}
            <Box
              component="li"
              sx={{
                py: 1.25,
                display: 'grid',
                gap: 0.5,
                gridTemplateColumns: { xs: '1fr', md: 'minmax(140px, 1fr) 1fr 1.4fr 1.2fr auto' },
                alignItems: 'center',
              }}
            >
              <SerialLink serial={f.serial} />
              <Typography variant="body2">{testTypeLabel(t, f.testType)}</Typography>
              <Typography variant="body2" color="text.secondary" component="time" dateTime={f.failedAt}>
                {formatDateTime(lang, f.failedAt)}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {[f.productName ?? t('quality.breakdown.unmatched'), f.machineName ?? t('quality.breakdown.uploaded')].join(' · ')}
              </Typography>
              <Link
                component={RouterLink}
                to={`/machine-data/${f.id}`}
                variant="body2"
                aria-label={`${t('quality.open.record')} ${f.recordId}`}
              >
                {t('quality.open.record')}
              </Link>
            </Box>
          </Fragment>
        ))}
      </Box>
      {query.hasNextPage && (
        <Button sx={{ mt: 1 }} onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
          {t('quality.open.more', { shown: formatNumber(lang, items.length, 0), total: formatNumber(lang, total, 0) })}
        </Button>
      )}
    </>
  );
}
