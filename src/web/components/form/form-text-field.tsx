/**
 * A text field bound to react-hook-form that shows its error (client or server) translated under the
 * field. Every form of the app uses it, so errors look and read the same everywhere.
 */
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import { decodeFieldMessage } from './zod-resolver';
import { DateField } from './date-field';

export function useFieldErrorText() {
  const { t } = useTranslation();
  return (message: string | undefined) => {
    if (!message) return undefined;
    const { key, params } = decodeFieldMessage(message);
    return t(key, { ...params, defaultValue: key });
  };
}

export type FormTextFieldProps<T extends FieldValues, U extends FieldValues> = Omit<TextFieldProps, 'name' | 'label'> & {
  control: Control<T, unknown, U>;
  name: Path<T>;
  /** i18n key of the label */
  label: string;
  /** i18n key of a hint shown while there is no error */
  hint?: string;
};

export function FormTextField<T extends FieldValues, U extends FieldValues>({
  control,
  name,
  label,
  hint,
  type,
  ...rest
}: FormTextFieldProps<T, U>) {
  const { t } = useTranslation();
  const errorText = useFieldErrorText();
  const [revealed, setRevealed] = useState(false);
  const isPassword = type === 'password';
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) =>
        type === 'date' ? (
          <DateField
            {...rest}
            name={field.name}
            ref={field.ref}
            value={typeof field.value === 'string' ? field.value : ''}
            onChange={field.onChange}
            onBlur={field.onBlur}
            id={rest.id ?? `field-${name}`}
            label={t(label)}
            error={!!fieldState.error}
            helperText={errorText(fieldState.error?.message) ?? (hint ? t(hint) : rest.helperText)}
            fullWidth={rest.fullWidth ?? true}
            max={(rest.slotProps?.htmlInput as { max?: string } | undefined)?.max}
            min={(rest.slotProps?.htmlInput as { min?: string } | undefined)?.min}
            slotProps={{ htmlInput: { 'aria-invalid': !!fieldState.error } }}
          />
        ) : (
          <TextField
            {...rest}
            {...field}
            value={field.value ?? ''}
            id={rest.id ?? `field-${name}`}
            type={isPassword && revealed ? 'text' : type}
            label={t(label)}
            error={!!fieldState.error}
            helperText={errorText(fieldState.error?.message) ?? (hint ? t(hint) : rest.helperText)}
            fullWidth={rest.fullWidth ?? true}
            slotProps={{
              ...rest.slotProps,
              htmlInput: { ...(rest.slotProps?.htmlInput as object), 'aria-invalid': !!fieldState.error },
              input: isPassword
                ? {
                    endAdornment: (
                      <InputAdornment position="end">
                        <IconButton
                          aria-label={t(revealed ? 'form.hidePassword' : 'form.showPassword')}
                          onClick={() => setRevealed((v) => !v)}
                          edge="end"
                          size="small"
                        >
                          {revealed ? <VisibilityOff fontSize="small" /> : <Visibility fontSize="small" />}
                        </IconButton>
                      </InputAdornment>
                    ),
                  }
                : (rest.slotProps?.input as object),
            }}
          />
        )
      }
    />
  );
}
