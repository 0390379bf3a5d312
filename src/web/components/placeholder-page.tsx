import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { PageHeader } from './page-header';

/** A screen whose content a later issue builds: its title and a short note. */
export function PlaceholderPage({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={title} />
      <Card>
        <CardContent>
          <Typography color="text.secondary">{t('app.comingSoon')}</Typography>
        </CardContent>
      </Card>
    </>
  );
}
