/**
 * Where a signed-in user lands on a screen their role may not open: what happened in words (not a bare
 * status code), and the two ways on: the home page, or signing in with an account that may open it.
 */
import LockOutlined from '@mui/icons-material/LockOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { BlankCard } from '../../../components/blank-card';

export default function NotAuthorizedPage() {
  const { t } = useTranslation();
  return (
    <BlankCard title="pages.notAuthorized">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 1.5 }}>
        <LockOutlined color="primary" sx={{ fontSize: 36 }} aria-hidden />
        <Typography variant="h6" component="p" sx={{ fontWeight: 600 }}>
          {t('misc.notAuthorized.heading')}
        </Typography>
      </Box>
      <Typography sx={{ mb: 3 }}>{t('app.notAuthorizedText')}</Typography>
      <Stack spacing={1.5}>
        <Button component={RouterLink} to="/" variant="contained" fullWidth>
          {t('app.backHome')}
        </Button>
        <Button component={RouterLink} to="/login" variant="outlined" fullWidth>
          {t('misc.notAuthorized.otherAccount')}
        </Button>
      </Stack>
    </BlankCard>
  );
}
