/**
 * The heading of a record's or a unit's screen: a title that names it (translated, with its id) and a way
 * back to where the user came from (useBackTo), then any further buttons.
 */
import ArrowBack from '@mui/icons-material/ArrowBack';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useBackTo } from './back-to';

export function ScreenHeader({ title, children }: { title: string; children?: ReactNode }) {
  const { t } = useTranslation();
  const backTo = useBackTo();
  return (
    <Box
      sx={{ display: 'flex', alignItems: { xs: 'flex-start', sm: 'center' }, flexDirection: { xs: 'column', sm: 'row' }, gap: 2, mb: 3 }}
    >
      <Typography variant="h5" component="h1" sx={{ fontWeight: 600, flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
        {title}
      </Typography>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <Button component={RouterLink} to={backTo} startIcon={<ArrowBack />} color="inherit">
          {t('machineScreens.record.back')}
        </Button>
        {children}
      </Box>
    </Box>
  );
}
