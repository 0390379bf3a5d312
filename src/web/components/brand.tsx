import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { LOGO_HEIGHT } from '../lib/constants';

/** The logo mark (25 px high) and, unless `compact`, the app title. */
export function Brand({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.25, minWidth: 0 }}>
      <Box component="svg" viewBox="0 0 32 32" sx={{ height: LOGO_HEIGHT, width: LOGO_HEIGHT, flexShrink: 0 }} aria-hidden="true">
        <rect width="32" height="32" rx="6" fill="#c62828" />
        <path d="M9 9h14v3h-5.5v12h-3V12H9z" fill="#fff" />
      </Box>
      {!compact && (
        <Typography component="span" variant="h6" noWrap sx={{ fontWeight: 700, fontSize: '1.1rem', color: 'text.primary' }}>
          {t('app.title')}
        </Typography>
      )}
    </Box>
  );
}
