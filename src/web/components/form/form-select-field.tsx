import MenuItem from '@mui/material/MenuItem';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import { useFieldErrorText } from './form-text-field';

/** A select bound to react-hook-form; `options` carry i18n keys as labels. */
export function FormSelectField<T extends FieldValues, U extends FieldValues>({
  control,
  name,
  label,
  options,
  ...rest
}: Omit<TextFieldProps, 'name' | 'label' | 'select'> & {
  control: Control<T, unknown, U>;
  name: Path<T>;
  label: string;
  options: readonly { value: string; label: string }[];
}) {
  const { t } = useTranslation();
  const errorText = useFieldErrorText();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          {...rest}
          {...field}
          value={field.value ?? ''}
          select
          id={rest.id ?? `field-${name}`}
          label={t(label)}
          error={!!fieldState.error}
          helperText={errorText(fieldState.error?.message) ?? rest.helperText}
          fullWidth={rest.fullWidth ?? true}
        >
          {options.map((o) => (
            <MenuItem key={o.value} value={o.value}>
              {t(o.label)}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
}
