/**
 * An outlined text field without TextField's Select machinery (Menu, Popover, Modal: some 9 KB gzipped
 * that the first load of /search never uses). Label, helper text and error are wired as TextField does.
 */
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput, { type OutlinedInputProps } from '@mui/material/OutlinedInput';
import type { SxProps, Theme } from '@mui/material/styles';

export interface TextInputProps extends Omit<OutlinedInputProps, 'label' | 'error'> {
  id: string;
  label: string;
  helperText?: string;
  error?: boolean;
  sx?: SxProps<Theme>;
  /** the label always above the field: no script is needed to move it out of the way of typing */
  shrinkLabel?: boolean;
}

export function TextInput({
  id,
  label,
  helperText,
  error = false,
  sx,
  fullWidth = true,
  inputProps,
  shrinkLabel,
  ...rest
}: TextInputProps) {
  const helperId = helperText ? `${id}-helper` : undefined;
  return (
    <FormControl variant="outlined" error={error} fullWidth={fullWidth} sx={sx}>
      <InputLabel htmlFor={id} shrink={shrinkLabel}>
        {label}
      </InputLabel>
      <OutlinedInput
        id={id}
        label={label}
        notched={shrinkLabel}
        inputProps={{ ...inputProps, 'aria-describedby': helperId, 'aria-invalid': error }}
        {...rest}
      />
      {helperText && <FormHelperText id={helperId}>{helperText}</FormHelperText>}
    </FormControl>
  );
}
