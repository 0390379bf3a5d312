/**
 * The staff dashboard (docs/product.md §3): the original's five metrics (requests made, products, serial numbers,
 * last test data received, last 5 requests) and requests per day, not-found share, mail queue and the
 * 30-day first-pass yield. Definitions in src/shared/contract/dashboard.ts.
 */
import ListAltOutlined from '@mui/icons-material/ListAltOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useDeferredValue, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { errorMessage } from '../../../lib/errors';
import { prefetchDashboard, useDashboard } from '../api';
import { FigureCards } from '../components/figure-cards';
import { RecentRequests } from '../components/recent-requests';
import { RequestsChart } from '../components/requests-chart';

function Section({ id, title, children, action }: { id: string; title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <Card component="section" aria-labelledby={`${id}-title`} sx={{ minWidth: 0 }}>
      <CardContent>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 1.5 }}>
          <Typography id={`${id}-title`} variant="h6" component="h2" sx={{ flex: 1 }}>
            {title}
          </Typography>
          {action}
        </Box>
        {children}
      </CardContent>
    </Card>
  );
}

export const prefetch = prefetchDashboard;

export default function DashboardPage() {
  const { t } = useTranslation();
  const q = useDashboard();
  // Drawn as a transition once it arrives (its chart is the heaviest draw of the staff screens): a phone stays
  // responsive while it draws; the skeleton holds the place until then.
  const d = useDeferredValue(q.data);
  return (
    <>
      <PageHeader title="pages.dashboard" />
      {q.isError && <Alert severity="error">{errorMessage(t, q.error)}</Alert>}
      {/* As tall as the figure cards (two columns on a phone, four from md up), so the page below them does not move when they come */}
      {!d && !q.isError && <Skeleton variant="rounded" sx={{ height: { xs: 960, md: 460 } }} />}
      {d && (
        <>
          <FigureCards d={d} />
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 3fr) minmax(0, 2fr)' }, gap: 2, mt: 2 }}>
            <Section id="requests-chart" title={t('dashboard.chart.title')}>
              <RequestsChart days={d.requests.perDay} />
            </Section>
            <Section
              id="recent"
              title={t('dashboard.recent.title')}
              action={
                <Button component={RouterLink} to="/searches" size="small" startIcon={<ListAltOutlined />}>
                  {t('dashboard.recent.all')}
                </Button>
              }
            >
              <RecentRequests items={d.recentRequests} />
            </Section>
          </Box>
        </>
      )}
    </>
  );
}
