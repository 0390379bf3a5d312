/**
 * The dashboard's figures as cards: the original's four counts first, then the new ones. Each opens the list
 * behind it (the deliveries' two only for those who may read deliveries): the searches of the days counted,
 * the products, the serial numbers, the records, the quality analysis, the held units, the open alerts.
 */
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { Dashboard } from '../../../../shared/contract/dashboard';
import { DASHBOARD_DAYS } from '../../../../shared/contract/dashboard-window';
import { HELD_UNITS_MAX_DAYS, rate } from '../../../../shared/contract/quality-limits';
import { formatDateTime, formatNumber } from '../../../components/format';
import { percent } from '../../../components/chart-frame';
import { useAppAbility } from '../../../lib/ability';
import { heldUnitsPath } from '../../quality/api';

/** The deliveries list filtered to open ones: where both delivery figures are found. */
export const OPEN_DELIVERIES = '/deliveries?status=open';

/** The UTC day `days` before `day` (YYYY-MM-DD). */
function daysBefore(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

interface Figure {
  id: string;
  label: string;
  value: string;
  detail: string;
  small?: boolean;
  warn?: boolean;
  /** the list behind the figure */
  to?: string;
}

export function FigureCards({ d }: { d: Dashboard }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const n = (v: number) => formatNumber(lang, v, 0);
  const days = DASHBOARD_DAYS;
  const deliveriesTo = useAppAbility().can('read', 'Delivery') ? OPEN_DELIVERIES : undefined;
  const inWindow = `from=${d.window.from}&to=${d.window.to}`;
  const cards: Figure[] = [
    {
      id: 'requests',
      label: t('dashboard.cards.requests'),
      value: n(d.requests.total),
      detail: t('dashboard.cards.requestsDetail', { count: n(d.requests.windowTotal), days }),
      to: '/searches',
    },
    { id: 'products', label: t('dashboard.cards.products'), value: n(d.products), detail: '', to: '/products' },
    {
      id: 'serials',
      label: t('dashboard.cards.serials'),
      value: n(d.serials.units),
      detail: t('dashboard.cards.serialsDetail', { ranges: n(d.serials.ranges) }),
      to: '/serial-numbers',
    },
    {
      id: 'last-received',
      label: t('dashboard.cards.lastReceived'),
      value: d.lastReceivedAt ? formatDateTime(lang, d.lastReceivedAt) : t('dashboard.cards.lastReceivedNone'),
      detail: '',
      small: true,
      to: '/machine-data',
    },
    {
      id: 'not-found',
      label: t('dashboard.cards.notFound'),
      value: percent(lang, rate(d.requests.windowNotFound, d.requests.windowTotal)),
      detail: t('dashboard.cards.notFoundDetail', { part: n(d.requests.windowNotFound), whole: n(d.requests.windowTotal), days }),
      to: `/searches?status=not-found&${inWindow}`,
    },
    {
      id: 'mail',
      label: t('dashboard.cards.mail'),
      value: t('dashboard.cards.mailQueued', { count: n(d.mail.queued) }),
      detail: t('dashboard.cards.mailFailed', { count: n(d.mail.failed) }),
      small: true,
      warn: d.mail.failed > 0,
      to: `/searches?status=${d.mail.failed > 0 ? 'failed' : 'queued'}`,
    },
    {
      id: 'first-pass',
      label: t('dashboard.cards.firstPass'),
      value: percent(lang, rate(d.firstPass.firstPass, d.firstPass.units)),
      detail: t('dashboard.cards.firstPassDetail', { part: n(d.firstPass.firstPass), whole: n(d.firstPass.units), days }),
      to: `/machine-data/quality?${inWindow}`,
    },
    {
      id: 'disagreements',
      label: t('dashboard.cards.disagreements'),
      value: n(d.disagreements),
      detail: t('dashboard.cards.disagreementsDetail'),
      warn: d.disagreements > 0,
      // The count is of every day; the list shows the units tested in the longest range it takes.
      to: heldUnitsPath({ reason: 'nonconforming', from: daysBefore(d.window.to, HELD_UNITS_MAX_DAYS - 1), to: d.window.to }),
    },
    {
      id: 'awaiting-release',
      label: t('dashboard.cards.awaitingRelease'),
      value: n(d.deliveries.awaitingRelease),
      detail: t('dashboard.cards.awaitingReleaseDetail'),
      to: deliveriesTo,
    },
    {
      id: 'held-units',
      label: t('dashboard.cards.heldUnits'),
      value: n(d.deliveries.heldUnits),
      detail: t('dashboard.cards.heldUnitsDetail'),
      warn: d.deliveries.heldUnits > 0,
      to: deliveriesTo,
    },
    {
      id: 'open-alerts',
      label: t('dashboard.cards.openAlerts'),
      value: n(d.openAlerts),
      detail: t('dashboard.cards.openAlertsDetail'),
      warn: d.openAlerts > 0,
      to: '/alerts?status=open',
    },
  ];
  return (
    // Wide: the original's four in the first row, the four added since in the second, the deliveries' two
    // and the open alerts in the third (12 columns). Phone: pairs (the disagreements across a row, so that the deliveries' two
    // stay side by side), with the long date across the last row.
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(12, minmax(0, 1fr))' }, gap: 2 }}>
      {cards.map((c) => {
        const content = (
          <CardContent>
            <Typography variant="body2" color="text.secondary">
              {c.label}
            </Typography>
            <Typography
              variant="h4"
              component="p"
              data-testid={`dashboard-value-${c.id}`}
              sx={{
                fontWeight: 600,
                my: 0.5,
                fontSize: c.small ? { xs: '1.1rem', sm: '1.35rem' } : { xs: '1.6rem', sm: '2.125rem' },
                overflowWrap: 'anywhere',
              }}
            >
              {c.value}
            </Typography>
            {c.detail && (
              <Typography variant="caption" color={c.warn ? 'error' : 'text.secondary'}>
                {c.detail}
              </Typography>
            )}
          </CardContent>
        );
        // The third row: the deliveries' two and the open alerts, a third each.
        const third = c.id === 'awaiting-release' || c.id === 'held-units' || c.id === 'open-alerts';
        return (
          <Card
            key={c.id}
            data-testid={`dashboard-card-${c.id}`}
            sx={{
              gridColumn: {
                xs: c.id === 'last-received' || c.id === 'disagreements' || c.id === 'open-alerts' ? 'span 2' : 'auto',
                md: third ? 'span 4' : 'span 3',
              },
              order: { xs: c.id === 'last-received' ? 1 : 0, md: 0 },
            }}
          >
            {c.to ? (
              <CardActionArea component={RouterLink} to={c.to} sx={{ height: '100%' }}>
                {content}
              </CardActionArea>
            ) : (
              content
            )}
          </Card>
        );
      })}
    </Box>
  );
}
