/**
 * Held units (staff, admin), a tab of Machine Data: every unit the release gate holds now, requested or not,
 * with what holds it, over the chosen days; filtered by product, bench and reason (all in the URL, so that a
 * dashboard card or a shared link opens the same list), and exported as CSV.
 */
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import InsightsOutlined from '@mui/icons-material/InsightsOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { daysIn, HELD_UNITS_MAX_DAYS, HOLD_KINDS, holdKindOf, type HoldKind } from '../../../../shared/contract/quality';
import { formatDateTime } from '../../../components/format';
import { PageHeader } from '../../../components/page-header';
import { ProductPicker } from '../../../components/product-picker';
import { SerialLink } from '../../../components/serial-link';
import { useChosenProduct, useProductOptions } from '../../products/api';
import { DayFields } from '../components/day-fields';
import { heldUnitsQuery, useHeldUnits, type HeldUnitsFilters } from '../api';
import { HoldLine } from '../../../components/hold-line';
import { BenchSelect } from '../components/bench-select';
import { RowList } from '../../../components/row-list';
import { daysOf, idOf, useAddressState } from '../components/use-quality-params';
import { FilterSelect } from '../../../components/filter-select';

function readFilters(search: URLSearchParams): HeldUnitsFilters {
  const reason = search.get('reason');
  return {
    ...daysOf(search),
    productId: idOf(search.get('productId')),
    machineId: idOf(search.get('machineId')),
    reason: (HOLD_KINDS as readonly string[]).includes(reason ?? '') ? (reason as HoldKind) : undefined,
  };
}

export default function HeldUnitsPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const { params: filters, set } = useAddressState(readFilters);
  const { product, pick } = useChosenProduct(filters.productId);
  // The server refuses a longer range (each unit in it is judged): said here, on the field's words, at once.
  const tooLong = daysIn(filters.from, filters.to) > HELD_UNITS_MAX_DAYS;
  const query = useHeldUnits(filters, !tooLong);
  const total = query.data?.pages[0]?.total;
  return (
    <>
      <PageHeader
        title="quality.heldUnits.title"
        actions={
          <>
            <Button component={RouterLink} to="/machine-data/quality" variant="outlined" startIcon={<InsightsOutlined />}>
              {t('quality.title')}
            </Button>
            <Button
              href={`/api/v1/held-units/export.csv?${heldUnitsQuery(filters)}`}
              download
              variant="outlined"
              startIcon={<DownloadOutlined />}
              data-testid="export-csv"
            >
              {t('table.csv.export')}
            </Button>
          </>
        }
      />
      <Box
        role="group"
        aria-label={t('quality.heldUnits.filters')}
        sx={{ display: 'grid', gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: '1fr 1fr 2fr 1.4fr 1.4fr' }, gap: 1.5, mb: 3 }}
      >
        <DayFields prefix="held" from={filters.from} to={filters.to} onChange={set} fullWidth />
        <Box sx={{ gridColumn: { xs: 'span 2', md: 'auto' } }}>
          <ProductPicker
            useOptions={useProductOptions}
            id="held-product"
            label={t('quality.heldUnits.product')}
            value={product}
            size="small"
            onChange={(p) => {
              pick(p);
              set({ productId: p?.id });
            }}
          />
        </Box>
        <BenchSelect id="held-bench" value={filters.machineId} onChange={(v) => set({ machineId: v })} />
        <FilterSelect
          fullWidth
          id="held-reason"
          label={t('quality.heldUnits.reason')}
          value={filters.reason}
          onChange={(v) => set({ reason: v })}
          all={t('quality.heldUnits.any')}
          options={HOLD_KINDS.map((k) => ({ value: k, label: t(`quality.heldUnits.kinds.${k}`) }))}
        />
      </Box>
      <Card component="section" aria-labelledby="held-units-title">
        <CardContent>
          <Typography id="held-units-title" variant="h6" component="h2" sx={{ mb: 1.5 }} data-testid="held-units-total">
            {total === undefined ? t('quality.heldUnits.listTitle') : t('quality.heldUnits.count', { count: total })}
          </Typography>
          {tooLong && (
            <Alert severity="warning" data-testid="held-range-too-long">
              {t('quality.validation.heldRangeTooLong')}
            </Alert>
          )}
          {!tooLong && (
            <RowList
              query={query}
              testId="held-units"
              emptyKey="quality.heldUnits.empty"
              moreKey="quality.held.more"
              columns="minmax(140px, 1fr) 1.2fr 2fr"
              skeletonHeight={120}
            >
              {(u) => (
                <>
                  <SerialLink serial={u.serial} />
                  <Box>
                    <Typography variant="body2">
                      {(lang === 'zh' && u.productNameZh) || u.productName || t('quality.breakdown.unmatched')}
                    </Typography>
                    <Typography variant="caption" color="text.secondary">
                      {t('quality.heldUnits.latestAt', { at: formatDateTime(lang, u.latestTestedAt) })}
                    </Typography>
                  </Box>
                  <Box sx={{ display: 'flex', gap: 0.75, alignItems: 'center', flexWrap: 'wrap' }}>
                    {[...new Set(u.heldFor.map(holdKindOf))].map((k) => (
                      <Chip
                        key={k}
                        size="small"
                        variant="outlined"
                        color={k === 'unreleased' ? 'default' : 'error'}
                        label={t(`quality.heldUnits.kinds.${k}`)}
                        data-testid={`hold-kind-${k}`}
                      />
                    ))}
                    {u.heldFor.map((h, i) => (
                      <Typography key={i} variant="caption" color="text.secondary" component="span" sx={{ width: '100%' }}>
                        <HoldLine h={h} />
                      </Typography>
                    ))}
                  </Box>
                </>
              )}
            </RowList>
          )}
        </CardContent>
      </Card>
    </>
  );
}
