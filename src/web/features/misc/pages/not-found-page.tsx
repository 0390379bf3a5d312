import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { BlankCard } from '../../../components/blank-card';

export default function NotFoundPage() {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <BlankCard title="pages.notFound">
      <Typography sx={{ mb: 1 }}>{t('app.notFoundText')}</Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 3, wordBreak: 'break-all' }}>
        {location.pathname}
      </Typography>
      <Button component={RouterLink} to="/" variant="contained" fullWidth>
        {t('app.backHome')}
      </Button>
    </BlankCard>
  );
}
