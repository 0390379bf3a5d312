/** The last five report requests: address (masked for staff), status and time; a list that fits a phone. */
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { Dashboard } from '../../../../shared/contract/dashboard';
import { formatDateTime } from '../../../components/format';

const COLORS = { sent: 'success', failed: 'error', queued: 'info', held: 'warning', 'not-found': 'default' } as const;

export function RecentRequests({ items }: { items: Dashboard['recentRequests'] }) {
  const { t, i18n } = useTranslation();
  if (items.length === 0) return <Typography color="text.secondary">{t('dashboard.recent.empty')}</Typography>;
  return (
    <List dense disablePadding data-testid="recent-requests">
      {items.map((r) => (
        <ListItem
          key={r.id}
          divider
          disableGutters
          secondaryAction={<Chip size="small" color={COLORS[r.status]} label={t(`searches.statuses.${r.status}`)} />}
        >
          <ListItemText
            sx={{ pr: 12, m: 0 }}
            primary={r.email ?? t('dashboard.recent.erased')}
            secondary={`${formatDateTime(i18n.language, r.createdAt)} · ${t('dashboard.recent.serials')} ${r.serials}`}
            slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
          />
        </ListItem>
      ))}
    </List>
  );
}
