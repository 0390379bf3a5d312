/**
 * Failures as a Pareto chart (SVG): one horizontal bar per test type, product or bench, most failures first,
 * with the cumulative share as a line over them. Each bar is a link to the Machine Data list filtered to
 * those failed records (its filters live in the URL: result, type, product, bench, from, to).
 */
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { linearScale } from '../../../../shared/chart';
import type { ParetoItem } from '../../../../shared/contract/quality';
import { formatNumber } from '../../../components/format';
import { ChartBox, percent } from '../../../components/chart-frame';
import type { ParetoDimension } from './use-quality-params';

const ROW = 34;
const TOP = 22;

/** The Machine Data list of the failed records behind one bar. */
export function recordsLink(by: ParetoDimension, key: string | null, range: { from: string; to: string }): string {
  const q = new URLSearchParams({ result: 'fail', from: range.from, to: range.to });
  if (by === 'testType' && key) q.set('type', key);
  if (by === 'product') {
    if (key) q.set('product', key);
    else q.set('matched', 'false');
  }
  if (by === 'machine' && key) q.set('bench', key);
  return `/machine-data?${q.toString()}`;
}

interface Props {
  items: ParetoItem[];
  by: ParetoDimension;
  range: { from: string; to: string };
  label: (item: ParetoItem) => string;
}

function Chart({ width, items, by, range, label }: Props & { width: number }) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const navigate = useNavigate();
  const titleId = useId();
  const lang = i18n.language;
  const labelWidth = Math.min(180, Math.max(90, width * 0.3));
  const countWidth = 44;
  const total = items.reduce((n, i) => n + i.failures, 0);
  const max = Math.max(1, ...items.map((i) => i.failures));
  const x = linearScale([0, max], [labelWidth + 8, width - countWidth]);
  const xShare = linearScale([0, 1], [labelWidth + 8, width - countWidth]);
  const height = TOP + items.length * ROW + 4;
  let running = 0;
  const cumulative = items.map((i) => (running += i.failures) / total);
  const muted = theme.palette.text.secondary;
  return (
    <svg
      width={width}
      height={height}
      role="group"
      aria-labelledby={titleId}
      data-testid="pareto-chart"
      style={{ display: 'block', fontSize: 12, fontFamily: theme.typography.fontFamily }}
    >
      <title id={titleId}>{t('quality.pareto.title')}</title>
      {[0, 0.5, 1].map((s) => (
        <text key={s} x={xShare(s)} y={12} textAnchor={s === 0 ? 'start' : s === 1 ? 'end' : 'middle'} fill={muted} fontSize={10}>
          {percent(lang, s).replace(/\.0/, '')}
        </text>
      ))}
      {items.map((item, i) => {
        const yTop = TOP + i * ROW;
        const href = recordsLink(by, item.key, range);
        const name = label(item);
        return (
          <a
            key={item.key ?? '-'}
            href={href}
            aria-label={`${t('quality.pareto.open', { label: name })}: ${t('quality.pareto.failures', { count: item.failures })}, ${t('quality.pareto.cumulative', { value: percent(lang, cumulative[i]!) })}`}
            data-testid="pareto-bar"
            onClick={(e) => {
              e.preventDefault();
              void navigate(href);
            }}
            style={{ cursor: 'pointer' }}
          >
            <rect x={0} y={yTop} width={width} height={ROW} fill="transparent" />
            <text
              x={labelWidth}
              y={yTop + ROW / 2}
              textAnchor="end"
              dominantBaseline="central"
              fill={theme.palette.primary.main}
              textDecoration="underline"
            >
              {name.length > labelWidth / 7 ? `${name.slice(0, Math.floor(labelWidth / 7) - 1)}…` : name}
            </text>
            <rect
              x={x(0)}
              y={yTop + 7}
              width={Math.max(2, x(item.failures) - x(0))}
              height={ROW - 14}
              rx={3}
              fill={theme.palette.error.main}
              opacity={0.8}
            />
            <text x={width - 4} y={yTop + ROW / 2} textAnchor="end" dominantBaseline="central" fill={theme.palette.text.primary}>
              {formatNumber(lang, item.failures, 0)}
            </text>
          </a>
        );
      })}
      <polyline
        points={cumulative.map((c, i) => `${xShare(c)},${TOP + i * ROW + ROW / 2}`).join(' ')}
        fill="none"
        stroke={theme.palette.warning.dark}
        strokeWidth={1.5}
        pointerEvents="none"
      />
      {cumulative.map((c, i) => (
        <circle key={i} cx={xShare(c)} cy={TOP + i * ROW + ROW / 2} r={3} fill={theme.palette.warning.dark} pointerEvents="none" />
      ))}
    </svg>
  );
}

export function ParetoChart(props: Props) {
  const { t } = useTranslation();
  if (props.items.length === 0) return <Typography color="text.secondary">{t('quality.pareto.empty')}</Typography>;
  return <ChartBox>{(width) => <Chart width={width} {...props} />}</ChartBox>;
}
