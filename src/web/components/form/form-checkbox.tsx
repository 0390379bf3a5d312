/**
 * A checkbox bound to react-hook-form, with its label, an optional hint, and its error (client or server)
 * translated under it in place of the hint, described to screen readers as the text fields' are.
 */
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import { useTranslation } from 'react-i18next';
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import { useFieldErrorText } from './form-text-field';

export interface FormCheckboxProps<T extends FieldValues, U extends FieldValues> {
  control: Control<T, unknown, U>;
  name: Path<T>;
  /** i18n key of the label */
  label: string;
  /** i18n key of a hint shown while there is no error */
  hint?: string;
  required?: boolean;
}

export function FormCheckbox<T extends FieldValues, U extends FieldValues>({
  control,
  name,
  label,
  hint,
  required,
}: FormCheckboxProps<T, U>) {
  const { t } = useTranslation();
  const errorText = useFieldErrorText();
  const helpId = `field-${name}-help`;
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => {
        const help = errorText(fieldState.error?.message) ?? (hint ? t(hint) : undefined);
        return (
          <FormControl error={!!fieldState.error} required={required}>
            <FormControlLabel
              control={
                <Checkbox
                  checked={!!field.value}
                  onChange={(e) => field.onChange(e.target.checked)}
                  onBlur={field.onBlur}
                  inputRef={field.ref}
                  slotProps={{ input: { 'aria-describedby': help ? helpId : undefined, 'aria-invalid': !!fieldState.error } }}
                />
              }
              label={t(label)}
            />
            {help && (
              <FormHelperText id={helpId} sx={{ mt: 0 }}>
                {help}
              </FormHelperText>
            )}
          </FormControl>
        );
      }}
    />
  );
}
