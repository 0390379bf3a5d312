/**
 * A control chart (SVG): the measure's points over time (a mean dot and a min–max whisker per time bucket),
 * the centre line, the ±3σ control limits and, where known, the specification limits. Buckets reaching past
 * a control limit are drawn in the error colour, and a point that breaks a run rule is ringed (its rules in
 * its tooltip and `data-rules`): a drifting bench shows before its tests fail. A legend says which is which.
 */
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTick, linearScale, niceTicks } from '../../../../shared/chart';
import type { ControlChart } from '../../../../shared/contract/quality';
import { formatNumber } from '../../../components/format';
import { ChartBox, shortDay, YGrid } from '../../../components/chart-frame';
import { labelled } from '../../../../shared/i18n/punctuation';

const PAD = { top: 12, right: 44, bottom: 28, left: 52 };

function Chart({ width, chart, range, title }: { width: number; chart: ControlChart; range: { from: string; to: string }; title: string }) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const titleId = useId();
  const lang = i18n.language;
  const height = width < 500 ? 240 : 300;
  const lines = [
    { id: 'ucl', value: chart.ucl, color: theme.palette.error.main, dash: '6 4' },
    { id: 'mean', value: chart.centre, color: theme.palette.text.primary, dash: undefined },
    { id: 'lcl', value: chart.lcl, color: theme.palette.error.main, dash: '6 4' },
    { id: 'usl', value: chart.spec?.usl ?? null, color: theme.palette.warning.dark, dash: '2 3' },
    { id: 'lsl', value: chart.spec?.lsl ?? null, color: theme.palette.warning.dark, dash: '2 3' },
  ].filter((l): l is typeof l & { value: number } => l.value !== null);
  const values = [...chart.points.flatMap((p) => [p.min, p.max]), ...lines.map((l) => l.value)];
  const ticks = niceTicks(Math.min(...values), Math.max(...values), 5);
  const t0 = Date.parse(`${range.from}T00:00:00Z`);
  const t1 = Date.parse(`${range.to}T00:00:00Z`) + 86_400_000;
  const x = linearScale([t0, t1], [PAD.left, width - PAD.right]);
  const y = linearScale([ticks.min, ticks.max], [height - PAD.bottom, PAD.top]);
  const muted = theme.palette.text.secondary;
  const outside = (min: number, max: number) => (chart.ucl !== null && max > chart.ucl) || (chart.lcl !== null && min < chart.lcl);
  const dayLabel = (ms: number) => shortDay(lang, new Date(ms).toISOString().slice(0, 10));
  const xTicks = [t0, (t0 + t1) / 2, t1 - 1];
  const broken = new Map(chart.breaks.map((b) => [b.index, b.rules]));
  const ruleNames = (i: number) => (broken.get(i) ?? []).map((r) => t(`quality.control.rule.${r}`)).join('; ');
  return (
    <svg
      width={width}
      height={height}
      role="img"
      aria-labelledby={titleId}
      data-testid="control-chart"
      style={{ display: 'block', fontSize: 11, fontFamily: theme.typography.fontFamily }}
    >
      <title id={titleId}>{title}</title>
      <YGrid values={ticks.values} y={y} x1={PAD.left} x2={width - PAD.right} label={(v) => formatTick(v, ticks.step)} />
      {xTicks.map((ms, i) => (
        <text key={i} x={x(ms)} y={height - 8} textAnchor={i === 0 ? 'start' : i === 2 ? 'end' : 'middle'} fill={muted}>
          {dayLabel(ms)}
        </text>
      ))}
      {lines.map((l) => (
        <g key={l.id} data-testid={`control-${l.id}`}>
          <line
            x1={PAD.left}
            x2={width - PAD.right}
            y1={y(l.value)}
            y2={y(l.value)}
            stroke={l.color}
            strokeWidth={l.id === 'mean' ? 1.5 : 1.25}
            strokeDasharray={l.dash}
          />
          <text x={width - PAD.right + 4} y={y(l.value)} dominantBaseline="central" fill={l.color} fontSize={10}>
            {t(`quality.control.${l.id}`)}
          </text>
        </g>
      ))}
      {chart.points.map((p, i) => {
        const cx = x(Date.parse(p.at));
        const bad = outside(p.min, p.max);
        const rules = broken.get(i);
        const color = bad ? theme.palette.error.main : theme.palette.info.main;
        const tip = labelled(lang, dayLabel(Date.parse(p.at)), `${formatNumber(lang, p.mean, 4)} (n ${p.n})`);
        return (
          <g key={i} data-outside={bad || undefined} data-rules={rules?.join(' ')} data-testid={rules ? 'rule-mark' : undefined}>
            {p.max > p.min && <line x1={cx} x2={cx} y1={y(p.min)} y2={y(p.max)} stroke={color} strokeOpacity={0.5} />}
            {rules && <circle cx={cx} cy={y(p.mean)} r={6} fill="none" stroke={theme.palette.warning.dark} strokeWidth={1.75} />}
            <circle cx={cx} cy={y(p.mean)} r={2.5} fill={color}>
              <title>{rules ? `${tip} · ${ruleNames(i)}` : tip}</title>
            </circle>
          </g>
        );
      })}
    </svg>
  );
}

/** What the marks mean, under the chart. */
function Legend() {
  const { t } = useTranslation();
  const theme = useTheme();
  const items = [
    { id: 'point', mark: <circle cx={8} cy={8} r={3} fill={theme.palette.info.main} /> },
    { id: 'outside', mark: <circle cx={8} cy={8} r={3} fill={theme.palette.error.main} /> },
    {
      id: 'rule',
      mark: (
        <>
          <circle cx={8} cy={8} r={6} fill="none" stroke={theme.palette.warning.dark} strokeWidth={1.75} />
          <circle cx={8} cy={8} r={2.5} fill={theme.palette.info.main} />
        </>
      ),
    },
  ];
  return (
    <Box
      component="ul"
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, listStyle: 'none', p: 0, m: 0, mt: 1, fontSize: 13 }}
      data-testid="control-legend"
    >
      {items.map((i) => (
        <Box component="li" key={i.id} sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}>
          <svg width={16} height={16} aria-hidden>
            {i.mark}
          </svg>
          {t(`quality.control.legend.${i.id}`)}
        </Box>
      ))}
    </Box>
  );
}

export function ControlChartSvg(props: { chart: ControlChart; range: { from: string; to: string }; title: string }) {
  return (
    <>
      <ChartBox>{(width) => <Chart width={width} {...props} />}</ChartBox>
      <Legend />
    </>
  );
}
