/** What the quality charts share: the width of their box (they redraw to fit it) and percent text. */
import Box from '@mui/material/Box';
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
