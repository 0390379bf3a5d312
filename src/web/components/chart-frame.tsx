/**
 * What the charts of the dashboard and the quality screen share: the width of their box (they redraw to fit
 * it), the legend above them, the horizontal grid with its labels, percent and short-day text.
 */
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import type { ReactNode } from 'react';
import { formatPercent, formatShortDay } from '../../shared/format/dates';
import { useWidth } from '../lib/use-width';

export { useWidth };

/** A box whose width the chart inside is drawn to. */
export function ChartBox({ children }: { children: (width: number) => ReactNode }) {
  const [ref, width] = useWidth<HTMLDivElement>(640);
  return (
    <Box ref={ref} sx={{ width: '100%', overflow: 'hidden' }}>
      {children(width)}
    </Box>
  );
}

/** A share as a percentage with one decimal in the interface language, or a dash. */
export function percent(language: string, share: number | null): string {
  return share === null ? '—' : formatPercent(language, share);
}

/** A UTC day (YYYY-MM-DD) as a short date in the interface language: "24 Nov" / "11月24日". */
export function shortDay(language: string, day: string): string {
  return formatShortDay(language, day);
}

/** The legend above a chart (hidden from screen readers: the chart's title says what it shows). */
export function ChartLegend({ items, swatch }: { items: [label: string, color: string][]; swatch: 'block' | 'line' }) {
  const size = swatch === 'block' ? { width: 12, height: 12, borderRadius: 0.5 } : { width: 14, height: 3, borderRadius: 1 };
  return (
    <Box sx={{ display: 'flex', gap: 2, mb: 1, flexWrap: 'wrap' }} aria-hidden>
      {items.map(([label, color]) => (
        <Box key={label} sx={{ display: 'flex', alignItems: 'center', gap: 0.75, fontSize: 13 }}>
          <Box sx={{ ...size, bgcolor: color }} />
          {label}
        </Box>
      ))}
    </Box>
  );
}

/** Horizontal grid lines from x1 to x2 at each value, labelled left of x1. */
export function YGrid({
  values,
  y,
  x1,
  x2,
  label,
}: {
  values: number[];
  y: (v: number) => number;
  x1: number;
  x2: number;
  label: (v: number) => string;
}) {
  const theme = useTheme();
  return values.map((v) => (
    <g key={v}>
      <line x1={x1} x2={x2} y1={y(v)} y2={y(v)} stroke={theme.palette.divider} />
      <text x={x1 - 6} y={y(v)} textAnchor="end" dominantBaseline="central" fill={theme.palette.text.secondary}>
        {label(v)}
      </text>
    </g>
  ));
}
