import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { statusCounts, type SearchStatus } from '../../../../shared/contract/searches';
import { enumerate } from '../../../../shared/i18n/punctuation';

type Shown = SearchStatus | 'sending';

/** A request's or an email's status in words, coloured by outcome (the word always carries the meaning). */
export function StatusChip({ status }: { status: Shown }) {
  const { t } = useTranslation();
  const label = t(`searches.statuses.${status}`);
  if (status === 'sent') return <Chip size="small" color="success" variant="outlined" label={label} />;
  // A fixed dark red under white text in both themes (the dark theme's lighter error colour fails contrast).
  if (status === 'failed') return <Chip size="small" label={label} sx={{ bgcolor: '#c62828', color: '#fff' }} />;
  if (status === 'held') return <Chip size="small" variant="outlined" label={label} sx={{ borderColor: 'warning.main' }} />;
  // The info colour outlines only: as text on white it fails contrast.
  if (status === 'queued' || status === 'sending')
    return <Chip size="small" variant="outlined" label={label} sx={{ borderColor: 'info.main', borderStyle: 'dashed' }} />;
  return <Chip size="small" variant="outlined" label={label} />;
}

/** Under a request's status, when its serials ended differently: how many ended each way ("1 sent, 1 held"). */
export function StatusCounts({ serials }: { serials: readonly { status: SearchStatus }[] }) {
  const { t, i18n } = useTranslation();
  const counts = statusCounts(serials);
  if (!counts.length) return null;
  const parts = counts.map((c) => t('searches.statusCount', { count: c.count, status: t(`searches.statuses.${c.status}`) }));
  return (
    <Typography variant="caption" component="div" color="text.secondary" data-testid="status-counts">
      {enumerate(i18n.language, parts)}
    </Typography>
  );
}
