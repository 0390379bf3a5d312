/**
 * Report requests held by the release gate over the days: the unit, when it was asked for, and what the
 * gate says of it now (still held and why, no data yet, or releasable). No addresses: this is about units.
 */
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../components/format';
import { SerialLink } from '../../../components/serial-link';
import { useHeldRequests, type QualityRange } from '../api';
import { HoldLine } from '../../../components/hold-line';
import { RowList } from '../../../components/row-list';

const COLOR = { stillHeld: 'error', noTests: 'default', releasable: 'success' } as const;

export function HeldRequests({ range }: { range: QualityRange }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return (
    <RowList
      query={useHeldRequests(range)}
      testId="held-requests"
      emptyKey="quality.held.empty"
      moreKey="quality.held.more"
      columns="minmax(140px, 1fr) 1.4fr 2fr"
      skeletonHeight={60}
    >
      {(r) => (
        <>
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
              <Typography key={`${h.testType}-${h.kind}`} variant="caption" color="text.secondary" component="span" sx={{ width: '100%' }}>
                <HoldLine h={h} />
              </Typography>
            ))}
            {r.reason !== 'stillHeld' && r.latestTestedAt && (
              <Typography variant="caption" color="text.secondary">
                {t('quality.held.latestAt', { at: formatDateTime(lang, r.latestTestedAt) })}
              </Typography>
            )}
          </Box>
        </>
      )}
    </RowList>
  );
}
