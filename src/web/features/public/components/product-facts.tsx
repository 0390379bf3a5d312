/** A found unit as step 1 shows it: product name, its ratings with units, and the production date. */
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatDay, formatNumber } from '../../../components/format';
import type { LookupResult } from '../lib/public-types';

type Fact = [label: string, value: string];

/** A YYYY-MM-DD date as that day everywhere: read as UTC midnight, shown in UTC (not the visitor's zone). */
export function calendarDate(lang: string, ymd: string): string {
  return formatDay(lang, ymd.slice(0, 10));
}

function facts(t: (k: string, o?: Record<string, unknown>) => string, lang: string, r: LookupResult): Fact[] {
  const p = r.product;
  const mpa = (n: number | null | undefined) => (n == null ? null : `${formatNumber(lang, n)} MPa`);
  const out: Array<[string, string | null | undefined]> = [
    ['search.product.fluid', p.fluid ? t(`search.fluids.${p.fluid}`, { defaultValue: p.fluid }) : null],
    ['search.product.connection', p.connection],
    ['search.product.application', p.application],
    ['search.product.applicationMedium', p.applicationMedium],
    ['search.product.pressureFc', mpa(p.pressureFc)],
    ['search.product.pressureWcb', mpa(p.pressureWcb)],
    ['search.product.pressureSus', mpa(p.pressureSus)],
    ['search.product.temperatureMax', p.temperatureMax == null ? null : `${formatNumber(lang, p.temperatureMax)} °C`],
    ['search.product.temperatureMin', p.temperatureMin == null ? null : `${formatNumber(lang, p.temperatureMin)} °C`],
    ['search.product.productionDate', r.productionDate ? calendarDate(lang, r.productionDate) : null],
  ];
  return out.filter((f): f is Fact => !!f[1]).map(([k, v]) => [t(k), v]);
}

/** A definition list of label–value pairs, two columns from 600 px, one on a phone. */
export function FactList({ items }: { items: Fact[] }) {
  return (
    <Box
      component="dl"
      sx={{
        m: 0,
        display: 'grid',
        gridTemplateColumns: { xs: 'minmax(0,1fr)', sm: 'max-content minmax(0,1fr)' },
        columnGap: 3,
        rowGap: { xs: 0, sm: 1 },
      }}
    >
      {items.map(([label, value]) => (
        <Box key={label} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary" sx={{ mt: { xs: 1, sm: 0 } }}>
            {label}
          </Typography>
          <Typography component="dd" variant="body1" sx={{ m: 0, overflowWrap: 'anywhere', fontWeight: 500 }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

export function ProductFacts({ result }: { result: LookupResult }) {
  const { t, i18n } = useTranslation();
  return <FactList items={facts(t, i18n.language, result)} />;
}
