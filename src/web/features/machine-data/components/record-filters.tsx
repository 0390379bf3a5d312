/**
 * The Machine Data list's filters: product, result, the product's verdict, test type, bench, matched or not, and a tested-at date
 * range. Their values live in the URL (useList); this only draws and changes them. Benches are listed for
 * admins (who manage them); for staff a bench filter is set by choosing a bench in a row, shown as a chip.
 */
import FilterAltOffOutlined from '@mui/icons-material/FilterAltOffOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TEST_RESULTS, TEST_TYPES, type TestRecord, type TestRecordSort } from '../../../../shared/contract/machine-data';
import type { ListState } from '../../../components/list-kit';
import { useAppAbility } from '../../../lib/ability';
import { useProduct } from '../../products/api';
import { useProductOptions } from '../../products/api';
import { ProductPicker, type ProductOption } from '../../../components/product-picker';
import { useMachineOptions } from '../../machines/api';
import { RECORD_VERDICT_FILTERS, type RecordFilter } from '../api';
import { DateField } from '../../../components/form/date-field';
import { FilterSelect } from '../../../components/filter-select';

type List = ListState<TestRecord, TestRecordSort, RecordFilter>;

function SelectFilter({
  list,
  name,
  label,
  options,
}: {
  list: List;
  name: RecordFilter;
  label: string;
  options: { value: string; label: string }[];
}) {
  const { t } = useTranslation();
  return (
    <FilterSelect
      fullWidth
      id={`filter-${name}`}
      label={label}
      value={list.filters[name]}
      onChange={(v) => list.setFilter(name, v)}
      all={t('machineScreens.list.any')}
      options={options}
    />
  );
}

function ProductFilter({ list }: { list: List }) {
  const { t } = useTranslation();
  const productId = list.filters.product;
  const known = useProduct(productId);
  const [picked, setPicked] = useState<ProductOption | null>(null);
  const value: ProductOption | null = productId
    ? picked?.id === productId
      ? picked
      : known.data
        ? { id: known.data.id, name: known.data.name }
        : null
    : null;
  return (
    <Box sx={{ gridColumn: { xs: '1 / -1', sm: 'span 2' } }}>
      <ProductPicker
        useOptions={useProductOptions}
        id="filter-product"
        label={t('machineScreens.fields.product')}
        value={value}
        size="small"
        onChange={(p) => {
          setPicked(p);
          list.setFilter('product', p?.id);
        }}
      />
    </Box>
  );
}

function BenchFilter({ list }: { list: List }) {
  const { t } = useTranslation();
  const canList = useAppAbility().can('read', 'Machine');
  const benches = useMachineOptions(canList);
  const benchId = list.filters.bench;
  if (canList) {
    const options = (benches.data?.items ?? []).map((m) => ({ value: m.id, label: m.name }));
    // A bench from an old link that the options do not hold yet still shows as chosen.
    if (benchId && !options.some((o) => o.value === benchId))
      options.push({ value: benchId, label: t('machineScreens.list.benchUnknown') });
    return <SelectFilter list={list} name="bench" label={t('machineScreens.fields.machine')} options={options} />;
  }
  if (!benchId) return null;
  const name = list.query.data?.items.find((r) => r.machineId === benchId)?.machineName ?? t('machineScreens.list.benchUnknown');
  return <Chip label={t('machineScreens.list.benchChip', { name })} onDelete={() => list.setFilter('bench', undefined)} />;
}

export function RecordFilters({ list }: { list: List }) {
  const { t } = useTranslation();
  const active = Object.values(list.filters).some((v) => v !== undefined);
  const date = (name: 'from' | 'to', label: string) => (
    <DateField
      fullWidth
      size="small"
      id={`filter-${name}`}
      label={label}
      value={list.filters[name] ?? ''}
      onChange={(v) => list.setFilter(name, v || undefined)}
      max={name === 'from' ? list.filters.to : undefined}
      min={name === 'to' ? list.filters.from : undefined}
    />
  );
  return (
    // A grid, so the filters line up in tidy rows at any width (two columns on a phone).
    <Box
      role="group"
      aria-label={t('machineScreens.list.filters')}
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(auto-fill, minmax(160px, 1fr))' },
        gap: 1.5,
        alignItems: 'center',
        width: '100%',
      }}
    >
      <ProductFilter list={list} />
      <SelectFilter
        list={list}
        name="result"
        label={t('machineScreens.fields.result')}
        options={TEST_RESULTS.map((v) => ({ value: v, label: t(`machineScreens.results.${v}`) }))}
      />
      <SelectFilter
        list={list}
        name="verdict"
        label={t('standards.filter.verdict')}
        options={RECORD_VERDICT_FILTERS.map((v) => ({ value: v, label: t(`standards.verdicts.${v}`) }))}
      />
      <SelectFilter
        list={list}
        name="type"
        label={t('machineScreens.fields.testType')}
        options={TEST_TYPES.map((v) => ({ value: v, label: t(`machineScreens.testTypes.${v}`) }))}
      />
      <BenchFilter list={list} />
      <SelectFilter
        list={list}
        name="matched"
        label={t('machineScreens.list.matching')}
        options={[
          { value: 'true', label: t('machineScreens.list.matchedOnly') },
          { value: 'false', label: t('machineScreens.list.unmatchedOnly') },
        ]}
      />
      {date('from', t('machineScreens.list.testedFrom'))}
      {date('to', t('machineScreens.list.testedTo'))}
      {active && (
        <Button
          size="small"
          color="inherit"
          sx={{ justifySelf: 'start' }}
          startIcon={<FilterAltOffOutlined />}
          onClick={() =>
            list.setFilters({
              product: undefined,
              result: undefined,
              verdict: undefined,
              type: undefined,
              bench: undefined,
              matched: undefined,
              from: undefined,
              to: undefined,
            })
          }
        >
          {t('machineScreens.list.clearFilters')}
        </Button>
      )}
    </Box>
  );
}
