/**
 * The pressure–time chart of one test as SVG, drawn from the primitives of src/shared/chart (the report
 * PDF draws the same ones). The curve is downsampled to two points per pixel column, so 10,000 samples
 * cost the browser a polyline of at most a couple of thousand points.
 */
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { alpha, useTheme } from '@mui/material/styles';
import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { buildChart, type ChartText, type Sample } from '../../../../shared/chart';
import { formatNumber } from '../../../components/format';
import { useWidth } from '../../../lib/use-width';

const BASELINE: Record<ChartText['baseline'], 'hanging' | 'central' | 'text-after-edge'> = {
  top: 'hanging',
  middle: 'central',
  bottom: 'text-after-edge',
};

export interface PressureChartProps {
  samples: readonly Sample[];
  testPressure: number | null;
  holdingSeconds: number | null;
}

export function PressureChart({ samples, testPressure, holdingSeconds }: PressureChartProps) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const [ref, width] = useWidth<HTMLDivElement>(720);
  const titleId = useId();
  const descId = useId();
  const lang = i18n.language;
  const height = width < 500 ? 260 : 360;
  const mpa = t('machineScreens.chart.mpa');
  const sec = t('machineScreens.chart.seconds');

  const chart = useMemo(
    () =>
      buildChart(
        { samples, testPressure, holdingSeconds },
        { x: 0, y: 0, width, height },
        {
          fontSize: 12,
          labels: {
            x: t('machineScreens.chart.timeAxis'),
            y: t('machineScreens.chart.pressureAxis'),
            reference:
              testPressure !== null
                ? t('machineScreens.chart.referenceLabel', { value: formatNumber(lang, testPressure), unit: mpa })
                : undefined,
            hold: holdingSeconds ? t('machineScreens.chart.holdLabel') : undefined,
          },
        },
      ),
    [samples, testPressure, holdingSeconds, width, height, t, lang, mpa],
  );

  const describe = [
    t('machineScreens.chart.describeSamples', { count: chart.sampleCount, formatted: formatNumber(lang, chart.sampleCount, 0) }),
    testPressure !== null ? t('machineScreens.chart.describeReference', { value: formatNumber(lang, testPressure), unit: mpa }) : '',
    chart.hold
      ? t('machineScreens.chart.describeHold', {
          start: formatNumber(lang, chart.hold.start, 1),
          end: formatNumber(lang, chart.hold.end, 1),
          unit: sec,
        })
      : '',
  ]
    .filter(Boolean)
    .join(' ');

  const muted = theme.palette.text.secondary;
  const curveColor = theme.palette.primary.main;
  const referenceColor = theme.palette.warning.main;
  // Labels in the darker shade on light paper and the lighter one on dark paper, for contrast.
  const dark = theme.palette.mode === 'dark';
  const referenceText = dark ? theme.palette.warning.light : theme.palette.warning.dark;
  const holdText = dark ? theme.palette.info.light : theme.palette.info.dark;
  const points = chart.curve.map(([x, y]) => `${x},${y}`).join(' ');

  return (
    <Box ref={ref} sx={{ width: '100%' }}>
      <svg
        width={width}
        height={height}
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-labelledby={`${titleId} ${descId}`}
        data-testid="pressure-chart"
        data-drawn={chart.drawnCount}
        style={{ display: 'block', fontFamily: theme.typography.fontFamily, fontSize: 12 }}
      >
        <title id={titleId}>{t('machineScreens.chart.title')}</title>
        <desc id={descId}>{describe}</desc>
        {chart.hold && (
          <rect
            x={chart.hold.x}
            y={chart.hold.y}
            width={chart.hold.width}
            height={chart.hold.height}
            fill={alpha(theme.palette.info.main, 0.1)}
            data-testid="chart-hold"
          />
        )}
        <g stroke={theme.palette.divider} strokeWidth={1}>
          {chart.grid.map((l, i) => (
            <line key={i} x1={l.x1} y1={l.y1} x2={l.x2} y2={l.y2} />
          ))}
        </g>
        <g stroke={muted} strokeWidth={1}>
          <line {...chart.xAxis.line} />
          <line {...chart.yAxis.line} />
          {chart.xAxis.ticks.map((tick) => (
            <line key={`x${tick.value}`} x1={tick.pos} y1={chart.xAxis.line.y1} x2={tick.pos} y2={chart.xAxis.line.y1 + 4} />
          ))}
          {chart.yAxis.ticks.map((tick) => (
            <line key={`y${tick.value}`} x1={chart.yAxis.line.x1 - 4} y1={tick.pos} x2={chart.yAxis.line.x1} y2={tick.pos} />
          ))}
        </g>
        {chart.reference && (
          <line
            x1={chart.reference.x1}
            y1={chart.reference.y1}
            x2={chart.reference.x2}
            y2={chart.reference.y2}
            stroke={referenceColor}
            strokeWidth={1.5}
            strokeDasharray="6 4"
            data-testid="chart-reference"
          />
        )}
        {points && (
          <polyline
            points={points}
            fill="none"
            stroke={curveColor}
            strokeWidth={1.75}
            strokeLinejoin="round"
            strokeLinecap="round"
            data-testid="chart-curve"
          />
        )}
        {chart.curve.length === 1 && <circle cx={chart.curve[0]![0]} cy={chart.curve[0]![1]} r={3} fill={curveColor} />}
        {chart.texts.map((text, i) => (
          <text
            key={i}
            x={text.x}
            y={text.y}
            textAnchor={text.anchor}
            dominantBaseline={BASELINE[text.baseline]}
            transform={text.rotate ? `rotate(${text.rotate} ${text.x} ${text.y})` : undefined}
            fill={text.role === 'reference' ? referenceText : text.role === 'hold' ? holdText : muted}
            fontWeight={text.role === 'xTitle' || text.role === 'yTitle' ? 500 : undefined}
          >
            {text.text}
          </text>
        ))}
      </svg>
      {chart.sampleCount === 0 && (
        <Typography color="text.secondary" variant="body2" sx={{ mt: 1 }}>
          {t('machineScreens.chart.noSamples')}
        </Typography>
      )}
    </Box>
  );
}
