/** Yields by product, bench or test type as a compact table (a stacked list on phones). */
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { rate, type QualitySummary, type YieldGroup } from '../../../../shared/contract/quality';
import { formatNumber } from '../../../components/format';
import { testTypeLabel } from '../../../components/record-values';
import { percent } from '../../../components/chart-frame';
import { compareNatural } from '../../../../shared/format/natural-sort';

const DIMS = ['product', 'machine', 'testType'] as const;
const FIELD = { product: 'byProduct', machine: 'byMachine', testType: 'byTestType' } as const;

export function Breakdown({ summary }: { summary: QualitySummary }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [dim, setDim] = useState<(typeof DIMS)[number]>('product');
  const name = (g: YieldGroup) =>
    dim === 'testType'
      ? testTypeLabel(t, g.key ?? '')
      : (g.label ?? t(dim === 'product' ? 'quality.breakdown.unmatched' : 'quality.breakdown.uploaded'));
  // Products and benches by name in natural order (DN80 before DN100), as the lists sort them.
  const rows: YieldGroup[] =
    dim === 'testType' ? summary[FIELD[dim]] : [...summary[FIELD[dim]]].sort((a, b) => compareNatural(name(a), name(b)));
  const cols = 'minmax(0, 2fr) repeat(4, minmax(0, 1fr))';
  return (
    <>
      <Tabs value={dim} onChange={(_, v) => setDim(v)} variant="scrollable" allowScrollButtonsMobile sx={{ mb: 1 }}>
        {DIMS.map((d) => (
          <Tab key={d} value={d} label={t(`quality.breakdown.${d}`)} />
        ))}
      </Tabs>
      <Box role="table" aria-label={t(`quality.breakdown.${dim}`)} sx={{ fontSize: 14 }} data-testid="yield-breakdown">
        <Box
          role="row"
          sx={{
            display: 'grid',
            gridTemplateColumns: cols,
            gap: 1,
            color: 'text.secondary',
            py: 0.5,
            borderBottom: 1,
            borderColor: 'divider',
          }}
        >
          {(['group', 'units', 'firstPass', 'finalPass', 'retested'] as const).map((c) => (
            <Box role="columnheader" key={c} sx={{ textAlign: c === 'group' ? 'left' : 'right', fontSize: 12 }}>
              {t(`quality.breakdown.${c}`)}
            </Box>
          ))}
        </Box>
        {rows.map((g) => (
          <Box
            role="row"
            key={g.key ?? '-'}
            sx={{ display: 'grid', gridTemplateColumns: cols, gap: 1, py: 0.75, borderBottom: 1, borderColor: 'divider' }}
          >
            <Box role="cell" sx={{ overflowWrap: 'anywhere' }}>
              {name(g)}
            </Box>
            <Box role="cell" sx={{ textAlign: 'right' }}>
              {formatNumber(lang, g.units, 0)}
            </Box>
            <Box role="cell" sx={{ textAlign: 'right' }}>
              {percent(lang, rate(g.firstPass, g.units))}
            </Box>
            <Box role="cell" sx={{ textAlign: 'right' }}>
              {percent(lang, rate(g.finalPass, g.units))}
            </Box>
            <Box role="cell" sx={{ textAlign: 'right' }}>
              {percent(lang, rate(g.retested, g.units))}
            </Box>
          </Box>
        ))}
        {rows.length === 0 && (
          <Typography color="text.secondary" sx={{ py: 1 }}>
            {t('quality.yieldChart.empty')}
          </Typography>
        )}
      </Box>
    </>
  );
}
