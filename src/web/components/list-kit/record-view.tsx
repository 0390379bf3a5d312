/** What an edit screen shows when its record does not exist: the server's message and a way back. */
import ArrowBack from '@mui/icons-material/ArrowBack';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';

export function NotFoundCard({ message, backTo, backLabel }: { message: string; backTo: string; backLabel: string }) {
  const { t } = useTranslation();
  return (
    <Card>
      <CardContent sx={{ textAlign: 'center', py: 6 }}>
        <Typography variant="h6" component="p" role="alert" data-testid="not-found">
          {message}
        </Typography>
        <Button component={RouterLink} to={backTo} startIcon={<ArrowBack />} sx={{ mt: 2 }}>
          {t(backLabel)}
        </Button>
      </CardContent>
    </Card>
  );
}
