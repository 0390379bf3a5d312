/** A searchable select over a list API (customers, purchase orders): typing asks the server (debounced). */
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Customer, PurchaseOrder } from '../../../../shared/contract/orders';
import type { ListResult } from '../../../components/data-table';

export interface PickedRecord {
  id: string;
  label: string;
}

export const customerOption = (c: Pick<Customer, 'id' | 'name' | 'code'>): PickedRecord => ({ id: c.id, label: `${c.name} (${c.code})` });
export const purchaseOrderOption = (o: Pick<PurchaseOrder, 'id' | 'number' | 'customerName'>): PickedRecord => ({
  id: o.id,
  label: `${o.number} · ${o.customerName}`,
});

const DEBOUNCE_MS = 250;

export function RecordPicker<T>({
  id,
  label,
  value,
  onChange,
  onBlur,
  useOptions,
  toOption,
  error,
  helperText,
  required,
  size,
  sx,
}: {
  id: string;
  /** translated */
  label: string;
  value: PickedRecord | null;
  onChange: (value: PickedRecord | null) => void;
  onBlur?: () => void;
  useOptions: (q: string, enabled: boolean) => UseQueryResult<ListResult<T>>;
  toOption: (row: T) => PickedRecord;
  error?: boolean;
  helperText?: ReactNode;
  required?: boolean;
  size?: 'small' | 'medium';
  sx?: object;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [input, setInput] = useState('');
  const [q, setQ] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setQ(input), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [input]);
  const search = value && input === value.label ? '' : q;
  const options = useOptions(search, open);
  const found = (options.data?.items ?? []).map(toOption);
  const list = value && !found.some((o) => o.id === value.id) ? [value, ...found] : found;
  return (
    <Autocomplete
      id={id}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      value={value}
      onChange={(_, v) => onChange(v)}
      inputValue={input}
      onInputChange={(_, v) => setInput(v)}
      options={list}
      filterOptions={(x) => x}
      getOptionLabel={(o) => o.label}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      loading={options.isFetching}
      loadingText={t('app.loading')}
      noOptionsText={t('orderScreens.picker.none')}
      openText={t('serials.picker.open')}
      closeText={t('app.close')}
      clearText={t('serials.picker.clear')}
      size={size}
      onBlur={onBlur}
      sx={sx}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          required={required}
          error={error}
          helperText={helperText}
          slotProps={{ htmlInput: { ...params.inputProps, 'aria-invalid': !!error } }}
        />
      )}
    />
  );
}
