/**
 * A test-bench filter for those who may list the benches (administrators): "Any" or one bench. A bench from
 * a link that the list does not hold shows as chosen. Others see nothing: a bench in the address still applies.
 */
import { useTranslation } from 'react-i18next';
import { useAppAbility } from '../../../lib/ability';
import { useMachineOptions } from '../../machines/api';
import { FilterSelect } from '../../../components/filter-select';

export function BenchSelect({ id, value, onChange }: { id: string; value: string | undefined; onChange: (v: string | undefined) => void }) {
  const { t } = useTranslation();
  const canList = useAppAbility().can('read', 'Machine');
  const benches = useMachineOptions(canList);
  if (!canList) return null;
  const options = (benches.data?.items ?? []).map((m) => ({ value: m.id, label: m.name }));
  if (value && !options.some((o) => o.value === value)) options.push({ value, label: t('machineScreens.list.benchUnknown') });
  return (
    <FilterSelect
      fullWidth
      id={id}
      label={t('quality.heldUnits.bench')}
      value={value}
      onChange={onChange}
      all={t('quality.heldUnits.any')}
      options={options}
    />
  );
}
