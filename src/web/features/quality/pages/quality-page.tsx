/**
 * Quality analysis (staff, admin), a tab of Machine Data: over the chosen days (in the URL) the yield
 * cards, yield over time, yields by group, failures as a Pareto that opens the failed records, the
 * failures never retested, report requests the release gate held, and a control chart with its capability.
 */
import ListAltOutlined from '@mui/icons-material/ListAltOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { ParetoItem } from '../../../../shared/contract/quality';
import { PageHeader } from '../../../components/page-header';
import { errorMessage } from '../../../lib/errors';
import { testTypeLabel } from '../../../components/record-values';
import { heldUnitsPath, prefetchQualitySummary, useQualitySummary } from '../api';
import { Breakdown } from '../components/breakdown';
import { ControlPanel } from '../components/control-panel';
import { HeldRequests } from '../components/held-requests';
import { OpenFailures } from '../components/open-failures';
import { ParetoChart } from '../components/pareto-chart';
import { PARETO_DIMENSIONS, readQualityParams, useQualityParams } from '../components/use-quality-params';
import { YieldCards } from '../components/yield-cards';
import { YieldChart } from '../components/yield-chart';
import { DayFields } from '../components/day-fields';

function Section({
  id,
  title,
  help,
  children,
  action,
}: {
  id: string;
  title: string;
  help?: string;
  children: ReactNode;
  action?: ReactNode;
}) {
  return (
    <Card component="section" aria-labelledby={`${id}-title`} sx={{ mt: 3 }}>
      <CardContent>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 1.5 }}>
          <Typography id={`${id}-title`} variant="h6" component="h2" sx={{ flex: 1 }}>
            {title}
          </Typography>
          {action}
        </Box>
        {help && (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
            {help}
          </Typography>
        )}
        {children}
      </CardContent>
    </Card>
  );
}

/**
 * The figures' place while they load: their cards and the first chart, and at least a screen tall, so that
 * the sections below start under the fold and stay there when the figures (taller than a screen) arrive.
 * A 120 px skeleton let them show and then pushed them away: a layout shift of 0.39 on a phone.
 */
function SummarySkeleton() {
  return (
    <Box sx={{ minHeight: '100vh' }} data-testid="quality-summary-loading">
      <Skeleton variant="rounded" height={120} />
      <Skeleton variant="rounded" height={300} sx={{ mt: 3 }} />
      <Skeleton variant="rounded" height={300} sx={{ mt: 3 }} />
    </Box>
  );
}

/** The summary of the days the address names, asked for as the screen's code arrives (src/web/app/router.tsx). */
export function prefetch(client: QueryClient, url: URL): Promise<void> {
  const { from, to, interval } = readQualityParams(url.searchParams);
  return prefetchQualitySummary(client, { from, to }, interval);
}

export default function QualityPage() {
  const { t } = useTranslation();
  const { params, set } = useQualityParams();
  const range = { from: params.from, to: params.to };
  const summary = useQualitySummary(range, params.interval);
  const s = summary.data;
  const paretoLabel = (i: ParetoItem) =>
    params.by === 'testType'
      ? testTypeLabel(t, i.key ?? '')
      : (i.label ?? t(params.by === 'product' ? 'quality.breakdown.unmatched' : 'quality.breakdown.uploaded'));
  return (
    <>
      <PageHeader
        title="quality.title"
        actions={
          <Button component={RouterLink} to="/machine-data" variant="outlined" startIcon={<ListAltOutlined />}>
            {t('quality.records')}
          </Button>
        }
      />
      <Box
        role="group"
        aria-label={t('quality.title')}
        sx={{ display: 'grid', gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(3, max-content)' }, gap: 1.5, mb: 3 }}
      >
        <DayFields prefix="quality" from={params.from} to={params.to} onChange={set} />
        <TextField
          select
          size="small"
          id="quality-interval"
          label={t('quality.interval')}
          value={params.interval}
          onChange={(e) => set({ interval: e.target.value })}
          sx={{ minWidth: 120 }}
        >
          <MenuItem value="day">{t('quality.day')}</MenuItem>
          <MenuItem value="week">{t('quality.week')}</MenuItem>
        </TextField>
      </Box>
      {summary.isError && <Alert severity="error">{errorMessage(t, summary.error)}</Alert>}
      {summary.isPending && <SummarySkeleton />}
      {s && (
        <Box sx={{ opacity: summary.isPlaceholderData ? 0.6 : 1, transition: 'opacity 0.2s' }} aria-busy={summary.isFetching}>
          <YieldCards totals={s.totals} />
          <Section id="yield-time" title={t('quality.yieldChart.title')}>
            <YieldChart periods={s.overTime} interval={params.interval} />
          </Section>
          <Section id="yield-groups" title={t('quality.breakdown.title')}>
            <Breakdown summary={s} />
          </Section>
          <Section
            id="pareto"
            title={t('quality.pareto.title')}
            action={
              <ToggleButtonGroup
                size="small"
                exclusive
                value={params.by}
                onChange={(_, v) => v && set({ by: v })}
                aria-label={t('quality.pareto.by')}
              >
                {PARETO_DIMENSIONS.map((d) => (
                  <ToggleButton key={d} value={d}>
                    {t(`quality.pareto.${d}`)}
                  </ToggleButton>
                ))}
              </ToggleButtonGroup>
            }
          >
            <ParetoChart items={s.pareto[params.by]} by={params.by} range={range} label={paretoLabel} />
          </Section>
        </Box>
      )}
      <Section id="open-failures" title={t('quality.open.title')} help={t('quality.open.help')}>
        <OpenFailures range={range} />
      </Section>
      <Section
        id="held"
        title={t('quality.held.title')}
        help={t('quality.held.help')}
        action={
          <Button component={RouterLink} to={heldUnitsPath(range)} size="small" data-testid="all-held-units">
            {t('quality.heldUnits.all')}
          </Button>
        }
      >
        <HeldRequests range={range} />
      </Section>
      <Section id="control" title={t('quality.control.title')}>
        <ControlPanel params={params} set={set} />
      </Section>
    </>
  );
}
