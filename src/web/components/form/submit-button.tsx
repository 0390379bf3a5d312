import Button, { type ButtonProps } from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { useTranslation } from 'react-i18next';

/** The submit button of a form: disabled with a spinner while saving. `label` is an i18n key. */
export function SubmitButton({ saving, label, ...rest }: ButtonProps & { saving: boolean; label: string }) {
  const { t } = useTranslation();
  return (
    <Button
      type="submit"
      variant="contained"
      disabled={saving || rest.disabled}
      aria-busy={saving}
      startIcon={saving ? <CircularProgress size={16} color="inherit" /> : rest.startIcon}
      {...rest}
    >
      {t(label)}
    </Button>
  );
}
