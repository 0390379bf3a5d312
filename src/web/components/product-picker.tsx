/** A searchable select over the products API: typing asks the server for matching names (debounced). */
import Autocomplete from '@mui/material/Autocomplete';
import CircularProgress from '@mui/material/CircularProgress';
import TextField from '@mui/material/TextField';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface ProductOption {
  id: string;
  name: string;
}

/** The products matching a search, as the products feature reads them (its `useProductOptions`), passed in. */
export type UseProductOptions = (
  q: string,
  enabled: boolean,
) => { data?: { items: Array<{ id: string; name: string }> }; isFetching: boolean };

const DEBOUNCE_MS = 250;

export function ProductPicker({
  id,
  label,
  value,
  onChange,
  onBlur,
  error,
  helperText,
  required,
  size,
  useOptions,
}: {
  id: string;
  /** the products feature's search of products (src/web/features/products/api.ts useProductOptions) */
  useOptions: UseProductOptions;
  /** translated label */
  label: string;
  value: ProductOption | null;
  onChange: (value: ProductOption | null) => void;
  onBlur?: () => void;
  error?: boolean;
  helperText?: ReactNode;
  required?: boolean;
  size?: 'small' | 'medium';
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [input, setInput] = useState('');
  const [q, setQ] = useState('');

  useEffect(() => {
    const timer = setTimeout(() => setQ(input), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [input]);

  // While the box shows the chosen name, list every product rather than only that one.
  const search = value && input === value.name ? '' : q;
  const options = useOptions(search, open);
  const found: ProductOption[] = (options.data?.items ?? []).map((p) => ({ id: p.id, name: p.name }));
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
      getOptionLabel={(o) => o.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      loading={options.isFetching}
      loadingText={t('app.loading')}
      noOptionsText={t('serials.picker.none')}
      openText={t('serials.picker.open')}
      closeText={t('app.close')}
      clearText={t('serials.picker.clear')}
      size={size}
      onBlur={onBlur}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          required={required}
          error={error}
          helperText={helperText}
          slotProps={{
            htmlInput: { ...params.inputProps, 'aria-invalid': !!error },
            input: {
              ...params.InputProps,
              endAdornment: (
                <>
                  {options.isFetching && open ? <CircularProgress color="inherit" size={18} /> : null}
                  {params.InputProps.endAdornment}
                </>
              ),
            },
          }}
        />
      )}
    />
  );
}
