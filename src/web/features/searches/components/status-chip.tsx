import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import type { SearchStatus } from '../../../../shared/contract/searches';

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
