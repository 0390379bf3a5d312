/** The headline figures: units tested, first-pass yield, final yield and retest rate, with their counts. */
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { rate, type QualitySummary } from '../../../../shared/contract/quality';
import { formatNumber } from '../../../components/format';
import { percent } from '../../../components/chart-frame';

export function YieldCards({ totals }: { totals: QualitySummary['totals'] }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const n = (v: number) => formatNumber(lang, v, 0);
  const of = (part: number) => t('quality.cards.ofUnits', { part: n(part), whole: n(totals.units) });
  const cards = [
    {
      id: 'units',
      label: t('quality.cards.units'),
      value: n(totals.units),
      detail: t('quality.cards.tests', { formatted: n(totals.tests) }),
    },
    {
      id: 'first-pass',
      label: t('quality.cards.firstPass'),
      value: percent(lang, rate(totals.firstPass, totals.units)),
      detail: of(totals.firstPass),
    },
    {
      id: 'final-pass',
      label: t('quality.cards.finalPass'),
      value: percent(lang, rate(totals.finalPass, totals.units)),
      detail: of(totals.finalPass),
    },
    {
      id: 'retest',
      label: t('quality.cards.retestRate'),
      value: percent(lang, rate(totals.retested, totals.units)),
      detail: of(totals.retested),
    },
  ];
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' }, gap: 2 }}>
      {cards.map((c) => (
        <Card key={c.id} data-testid={`quality-card-${c.id}`}>
          <CardContent>
            <Typography variant="body2" color="text.secondary">
              {c.label}
            </Typography>
            <Typography variant="h4" component="p" sx={{ fontWeight: 600, my: 0.5, fontSize: { xs: '1.6rem', sm: '2.125rem' } }}>
              {c.value}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {c.detail}
            </Typography>
          </CardContent>
        </Card>
      ))}
    </Box>
  );
}
