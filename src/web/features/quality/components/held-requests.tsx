/**
 * Report requests held by the release gate over the days: the unit, when it was asked for, and what the
 * gate says of it now (still held and why, no data yet, or releasable). No addresses: this is about units.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatNumber } from '../../../components/format';
import { errorMessage } from '../../../lib/errors';
import { SerialLink } from '../../../components/serial-link';
import { useHeldRequests, type QualityRange } from '../api';
import type { HeldRequest } from '../../../../shared/contract/quality';

const COLOR = { stillHeld: 'error', noTests: 'default', releasable: 'success' } as const;

/** "Shell failed on 8 Nov 2026, not retested", "Backseat: leakage above the allowed (bench passed) …", "Seat: no test yet". */
function HoldLine({ h }: { h: HeldRequest['heldFor'][number] }) {
  const { t, i18n } = useTranslation();
  const test = t(`machineScreens.testTypes.${h.testType}`);
  if (h.kind === 'missing') return <>{t('quality.held.missing', { test })}</>;
  const at = h.testedAt ? formatDateTime(i18n.language, h.testedAt) : '';
  const why = h.reasons.map((r) => t(`standards.reason.${r}`)).join(', ');
  return <>{h.bench === 'pass' ? t('quality.held.nonconforming', { test, at, why }) : t('quality.held.failed', { test, at })}</>;
}

export function HeldRequests({ range }: { range: QualityRange }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const query = useHeldRequests(range);
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  const total = query.data?.pages[0]?.total ?? 0;
  if (query.isPending) return <Skeleton variant="rounded" height={60} />;
  if (query.isError) return <Alert severity="error">{errorMessage(t, query.error)}</Alert>;
  if (items.length === 0) return <Typography color="text.secondary">{t('quality.held.empty')}</Typography>;
  return (
    <>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }} data-testid="held-requests">
        {items.map((r, i) => (
          <Fragment key={r.id}>
            {i > 0 && <Divider component="li" aria-hidden />}
            <Box
              component="li"
              sx={{
                py: 1.25,
                display: 'grid',
                gap: 0.5,
                gridTemplateColumns: { xs: '1fr', md: 'minmax(140px, 1fr) 1.4fr 2fr' },
                alignItems: 'center',
              }}
            >
              <SerialLink serial={r.serial} />
              <Typography variant="body2" color="text.secondary">
                {t('quality.held.requestedAt')} <time dateTime={r.requestedAt}>{formatDateTime(lang, r.requestedAt)}</time>
              </Typography>
              <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
                <Chip
                  size="small"
                  color={COLOR[r.reason]}
                  variant="outlined"
                  label={t(`quality.held.reasons.${r.reason}`)}
                  data-testid={`held-reason-${r.reason}`}
                />
                {r.heldFor.map((h) => (
                  <Typography
                    key={`${h.testType}-${h.kind}`}
                    variant="caption"
                    color="text.secondary"
                    component="span"
                    sx={{ width: '100%' }}
                  >
                    <HoldLine h={h} />
                  </Typography>
                ))}
                {r.reason !== 'stillHeld' && r.latestTestedAt && (
                  <Typography variant="caption" color="text.secondary">
                    {t('quality.held.latestAt', { at: formatDateTime(lang, r.latestTestedAt) })}
                  </Typography>
                )}
              </Box>
            </Box>
          </Fragment>
        ))}
      </Box>
      {query.hasNextPage && (
        <Button sx={{ mt: 1 }} onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
          {t('quality.held.more', { shown: formatNumber(lang, items.length, 0), total: formatNumber(lang, total, 0) })}
        </Button>
      )}
    </>
  );
}
