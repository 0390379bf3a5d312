import MenuItem from '@mui/material/MenuItem';
import type { FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormTextField, type FormTextFieldProps } from './form-text-field';

/** A select bound to react-hook-form (a FormTextField with `select`); `options` carry i18n keys as labels. */
export function FormSelectField<T extends FieldValues, U extends FieldValues>({
  options,
  ...rest
}: Omit<FormTextFieldProps<T, U>, 'select' | 'type'> & {
  options: readonly { value: string; label: string }[];
}) {
  const { t } = useTranslation();
  return (
    <FormTextField {...rest} select>
      {options.map((o) => (
        <MenuItem key={o.value} value={o.value}>
          {t(o.label)}
        </MenuItem>
      ))}
    </FormTextField>
  );
}
