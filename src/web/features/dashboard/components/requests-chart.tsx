/**
 * Requests per day as stacked bars (SVG): not-found lookups below, report requests above, with axes from
 * src/shared/chart's nice ticks. Each bar carries its day and counts as a tooltip.
 */
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { linearScale, niceTicks, thinAxisLabels } from '../../../../shared/chart';
import type { Dashboard } from '../../../../shared/contract/dashboard';
import { formatNumber } from '../../../components/format';
import { ChartBox, ChartLegend, shortDay, YGrid } from '../../../components/chart-frame';
import { colon, comma } from '../../../../shared/i18n/punctuation';

type Day = Dashboard['requests']['perDay'][number];
const PAD = { top: 12, right: 8, bottom: 28, left: 40 };

function Chart({ width, days }: { width: number; days: Day[] }) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const titleId = useId();
  const lang = i18n.language;
  const height = width < 500 ? 180 : 220;
  const ticks = niceTicks(0, Math.max(4, ...days.map((d) => d.requests)), 4);
  const band = (width - PAD.left - PAD.right) / days.length;
  const y = linearScale([ticks.min, ticks.max], [height - PAD.bottom, PAD.top]);
  const barW = Math.max(2, band * 0.7);
  const center = (i: number) => PAD.left + i * band + band / 2;
  const dayLabels = days.map((d) => shortDay(lang, d.day));
  // Labels thinned to fit the width in the page's language; the last day always labelled.
  const labelled = thinAxisLabels(
    days.map((_, i) => center(i)),
    dayLabels,
    { fontSize: 11, anchorEnds: true },
  );
  const muted = theme.palette.text.secondary;
  const colors = { notFound: theme.palette.warning.main, requests: theme.palette.primary.main };
  const total = days.reduce((s, d) => s + d.requests, 0);
  const notFound = days.reduce((s, d) => s + d.notFound, 0);
  return (
    <svg
      width={width}
      height={height}
      role="img"
      aria-labelledby={titleId}
      data-testid="requests-chart"
      style={{ display: 'block', fontSize: 11, fontFamily: theme.typography.fontFamily }}
    >
      <title id={titleId}>
        {t('dashboard.chart.describe', {
          from: shortDay(lang, days[0]!.day),
          to: shortDay(lang, days[days.length - 1]!.day),
          total: formatNumber(lang, total, 0),
          notFound: formatNumber(lang, notFound, 0),
        })}
      </title>
      <YGrid values={ticks.values} y={y} x1={PAD.left} x2={width - PAD.right} label={(v) => formatNumber(lang, v, 0)} />
      {days.map((d, i) => {
        const x = PAD.left + i * band + (band - barW) / 2;
        const yNotFound = y(d.notFound);
        const yAll = y(d.requests);
        return (
          <g key={d.day} data-testid="requests-bar" data-day={d.day} data-requests={d.requests}>
            <title>
              {`${shortDay(lang, d.day)}${colon(lang)}${t('dashboard.chart.requests')} ${formatNumber(lang, d.requests - d.notFound, 0)}${comma(lang)}${t('dashboard.chart.notFound')} ${formatNumber(lang, d.notFound, 0)}`}
            </title>
            <rect x={x} y={yNotFound} width={barW} height={y(0) - yNotFound} fill={colors.notFound} />
            <rect x={x} y={yAll} width={barW} height={yNotFound - yAll} fill={colors.requests} />
          </g>
        );
      })}
      {labelled.map(({ index, anchor }) => (
        <text key={index} x={center(index)} y={height - 8} textAnchor={anchor} fill={muted} data-testid="x-label">
          {dayLabels[index]}
        </text>
      ))}
    </svg>
  );
}

export function RequestsChart({ days }: { days: Day[] }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const empty = days.every((d) => d.requests === 0);
  return (
    <>
      <ChartLegend
        swatch="block"
        items={[
          [t('dashboard.chart.requests'), theme.palette.primary.main],
          [t('dashboard.chart.notFound'), theme.palette.warning.main],
        ]}
      />
      <ChartBox>{(width) => days.length > 0 && <Chart width={width} days={days} />}</ChartBox>
      {empty && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {t('dashboard.chart.empty', { days: days.length })}
        </Typography>
      )}
    </>
  );
}
