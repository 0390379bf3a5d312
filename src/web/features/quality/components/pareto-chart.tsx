/**
 * Failures as a Pareto chart (SVG): one horizontal bar per test type, product or bench, most failures first,
 * with the cumulative share as a line over them. The bars have their own failure-count axis (below them) and the
 * line its own 0–100 % axis (above them): a horizontal Pareto's two value axes
 * (docs/decisions/0024-polish-dates-vocabulary-sorting.md). Each bar is a link to the Machine Data list filtered to
 * those failed records (its filters live in the URL: result, type, product, bench, from, to).
 */
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { estimateTextWidth, linearScale, niceTicks, thinAxisLabels } from '../../../../shared/chart';
import type { ParetoItem } from '../../../../shared/contract/quality';
import { formatNumber } from '../../../components/format';
import { ChartBox, percent } from '../../../components/chart-frame';
import type { ParetoDimension } from './use-quality-params';
import { comma, labelled } from '../../../../shared/i18n/punctuation';

const ROW = 34;
/** room above the bars for the cumulative-share axis, and below them for the count axis */
const TOP = 24;
const BOTTOM = 22;

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
  const plot = { left: labelWidth + 8, right: width - countWidth };
  // Two axes over the same bars: failures (counts, whole numbers) below, the cumulative share above.
  const countTicks = niceTicks(0, max, Math.max(2, Math.floor((plot.right - plot.left) / 70)));
  const countStep = Math.max(1, countTicks.step);
  const countMax = Math.ceil(countTicks.max / countStep) * countStep;
  const counts: number[] = [];
  for (let v = 0; v <= countMax + 1e-9; v += countStep) counts.push(v);
  const x = linearScale([0, countMax], [plot.left, plot.right]);
  const xShare = linearScale([0, 1], [plot.left, plot.right]);
  const shares = plot.right - plot.left > 260 ? [0, 0.25, 0.5, 0.75, 1] : [0, 0.5, 1];
  const barsBottom = TOP + items.length * ROW;
  const height = barsBottom + BOTTOM;
  let running = 0;
  const cumulative = items.map((i) => (running += i.failures) / total);
  const muted = theme.palette.text.secondary;
  const line = theme.palette.warning.dark;
  const countLabels = thinAxisLabels(
    counts.map((v) => x(v)),
    counts.map((v) => formatNumber(lang, v, 0)),
    { fontSize: 10, gap: 8 },
  );
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
      <g data-testid="pareto-share-axis" fill={line} fontSize={10}>
        <text x={labelWidth} y={12} textAnchor="end">
          {t('charts.pareto.shareAxis')}
        </text>
        <line x1={plot.left} x2={plot.right} y1={TOP - 4} y2={TOP - 4} stroke={line} strokeOpacity={0.5} />
        {shares.map((s) => (
          <g key={s}>
            <line x1={xShare(s)} x2={xShare(s)} y1={TOP - 8} y2={TOP - 4} stroke={line} />
            <text x={xShare(s)} y={12} textAnchor={s === 0 ? 'start' : s === 1 ? 'end' : 'middle'}>
              {percent(lang, s).replace(/[.,]0(?=\D*$)/, '')}
            </text>
          </g>
        ))}
      </g>
      <g data-testid="pareto-count-axis" fill={muted} fontSize={10}>
        {counts.map((v) => (
          <line key={v} x1={x(v)} x2={x(v)} y1={TOP} y2={barsBottom + 4} stroke={theme.palette.divider} />
        ))}
        <text x={labelWidth} y={barsBottom + 16} textAnchor="end">
          {t('charts.pareto.countAxis')}
        </text>
        {countLabels.map(({ index }) => (
          <text key={index} x={x(counts[index]!)} y={barsBottom + 16} textAnchor="middle" data-testid="pareto-count-tick">
            {formatNumber(lang, counts[index]!, 0)}
          </text>
        ))}
      </g>
      {items.map((item, i) => {
        const yTop = TOP + i * ROW;
        const href = recordsLink(by, item.key, range);
        const name = label(item);
        return (
          <a
            key={item.key ?? '-'}
            href={href}
            // Starts with what the bar shows (its name, then its count), so that a voice command naming
            // the visible text reaches it (WCAG 2.5.3, Label in Name).
            aria-label={labelled(
              lang,
              `${name} ${t('quality.pareto.failures', { count: item.failures })}${comma(lang)}${t('quality.pareto.cumulative', { value: percent(lang, cumulative[i]!) })}`,
              t('quality.pareto.open'),
            )}
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
              {fitText(name, labelWidth, 12)}
            </text>
            <rect
              x={x(0)}
              y={yTop + 7}
              width={Math.max(2, x(item.failures) - x(0))}
              height={ROW - 14}
              rx={3}
              fill={theme.palette.error.main}
              opacity={0.8}
              data-testid="pareto-count-bar"
              data-count={item.failures}
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
        stroke={line}
        strokeWidth={1.5}
        pointerEvents="none"
      />
      {cumulative.map((c, i) => (
        <circle key={i} cx={xShare(c)} cy={TOP + i * ROW + ROW / 2} r={3} fill={line} pointerEvents="none" />
      ))}
    </svg>
  );
}

/** A name cut with an ellipsis to fit `width` (CJK characters count about twice a Latin letter). */
function fitText(text: string, width: number, fontSize: number): string {
  if (estimateTextWidth(text, fontSize) <= width) return text;
  let out = '';
  for (const ch of text) {
    if (estimateTextWidth(`${out}${ch}…`, fontSize) > width) break;
    out += ch;
  }
  return `${out}…`;
}

export function ParetoChart(props: Props) {
  const { t } = useTranslation();
  if (props.items.length === 0) return <Typography color="text.secondary">{t('quality.pareto.empty')}</Typography>;
  return <ChartBox>{(width) => <Chart width={width} {...props} />}</ChartBox>;
}
