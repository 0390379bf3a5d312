import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { BlankCard } from '../../../components/blank-card';

export default function NotAuthorizedPage() {
  const { t } = useTranslation();
  return (
    <BlankCard title="pages.notAuthorized">
      <Typography variant="h2" component="p" sx={{ fontWeight: 700, color: 'primary.main', mb: 1 }} aria-hidden="true">
        401
      </Typography>
      <Typography sx={{ mb: 3 }}>{t('app.notAuthorizedText')}</Typography>
      <Button component={RouterLink} to="/" variant="contained" fullWidth>
        {t('app.backHome')}
      </Button>
    </BlankCard>
  );
}
