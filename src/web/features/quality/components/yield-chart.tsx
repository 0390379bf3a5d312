/**
 * First-pass and final yield per day or week as two lines (SVG), with axes from src/shared/chart's nice
 * ticks. The y axis starts at a nice value below the lowest yield, so that a few points' drop is visible.
 */
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { linearScale, niceTicks, thinAxisLabels } from '../../../../shared/chart';
import { rate, type QualityInterval, type YieldGroup } from '../../../../shared/contract/quality';
import { ChartBox, ChartLegend, percent, shortDay, YGrid } from '../../../components/chart-frame';

const PAD = { top: 12, right: 16, bottom: 28, left: 48 };

function Chart({ width, periods, interval }: { width: number; periods: YieldGroup[]; interval: QualityInterval }) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const titleId = useId();
  const lang = i18n.language;
  const height = width < 500 ? 200 : 240;
  const series = [
    {
      id: 'firstPass',
      label: t('quality.cards.firstPass'),
      color: theme.palette.info.main,
      values: periods.map((p) => rate(p.firstPass, p.units) ?? 0),
    },
    {
      id: 'finalPass',
      label: t('quality.cards.finalPass'),
      color: theme.palette.success.main,
      values: periods.map((p) => rate(p.finalPass, p.units) ?? 0),
    },
  ];
  const lowest = Math.min(...series.flatMap((s) => s.values), 1);
  const ticks = niceTicks(Math.max(0, lowest * 100 - 2), 100, 4);
  const x = linearScale([0, Math.max(1, periods.length - 1)], [PAD.left, width - PAD.right]);
  const y = linearScale([ticks.min, ticks.max], [height - PAD.bottom, PAD.top]);
  const xAt = (i: number) => (periods.length === 1 ? (PAD.left + width - PAD.right) / 2 : x(i));
  // Date labels thinned to fit the width in the page's language, always the first and the last.
  const dayLabels = periods.map((p) => shortDay(lang, p.key!));
  const labelled = thinAxisLabels(
    periods.map((_, i) => xAt(i)),
    dayLabels,
    { fontSize: 11, anchorEnds: true },
  );
  const muted = theme.palette.text.secondary;
  return (
    <svg
      width={width}
      height={height}
      role="img"
      aria-labelledby={titleId}
      data-testid="yield-chart"
      style={{ display: 'block', fontSize: 11, fontFamily: theme.typography.fontFamily }}
    >
      <title id={titleId}>
        {t('quality.yieldChart.describe', {
          interval: t(`quality.${interval}`),
          from: periods[0]?.key ?? '',
          to: periods[periods.length - 1]?.key ?? '',
        })}
      </title>
      <YGrid values={ticks.values} y={y} x1={PAD.left} x2={width - PAD.right} label={(v) => `${v}%`} />
      {labelled.map(({ index, anchor }) => (
        <text key={index} x={xAt(index)} y={height - 8} textAnchor={anchor} fill={muted} data-testid="x-label">
          {dayLabels[index]}
        </text>
      ))}
      {series.map((s) => (
        <g key={s.id} data-testid={`yield-line-${s.id}`}>
          <polyline
            points={s.values.map((v, i) => `${xAt(i)},${y(v * 100)}`).join(' ')}
            fill="none"
            stroke={s.color}
            strokeWidth={2}
            strokeLinejoin="round"
          />
          {s.values.map((v, i) => (
            <circle key={i} cx={xAt(i)} cy={y(v * 100)} r={periods.length > 60 ? 1.5 : 3} fill={s.color}>
              <title>{`${shortDay(lang, periods[i]!.key!)} ${s.label} ${percent(lang, v)}`}</title>
            </circle>
          ))}
        </g>
      ))}
    </svg>
  );
}

export function YieldChart({ periods, interval }: { periods: YieldGroup[]; interval: QualityInterval }) {
  const { t } = useTranslation();
  const theme = useTheme();
  if (periods.length === 0) return <Typography color="text.secondary">{t('quality.yieldChart.empty')}</Typography>;
  return (
    <>
      <ChartLegend
        swatch="line"
        items={[
          [t('quality.cards.firstPass'), theme.palette.info.main],
          [t('quality.cards.finalPass'), theme.palette.success.main],
        ]}
      />
      <ChartBox>{(width) => <Chart width={width} periods={periods} interval={interval} />}</ChartBox>
    </>
  );
}
