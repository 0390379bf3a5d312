import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { BlankCard } from '../../../components/blank-card';

/** The public Test Report Center page; the public-search issue builds the lookup and the report request. */
export default function SearchPage() {
  const { t } = useTranslation();
  return (
    <BlankCard title="pages.search" width={560}>
      <Typography color="text.secondary">{t('app.searchIntro')}</Typography>
    </BlankCard>
  );
}
