/** Create a bench or rename one: the bench's name, checked by the same schema the server uses. */
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { machineCreateInput } from '../../../../shared/contract/machines';
import { applyServerErrors, FormTextField, SubmitButton, zodFormResolver } from '../../../components/form';

export function NameDialog({
  title,
  text,
  submitLabel,
  initialName = '',
  onSubmit,
  onClose,
}: {
  /** translated */
  title: string;
  /** translated */
  text?: string;
  /** i18n key */
  submitLabel: string;
  initialName?: string;
  /** resolves when saved; throws the API error otherwise */
  onSubmit: (name: string) => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const form = useForm({ resolver: zodFormResolver(machineCreateInput), defaultValues: { name: initialName } });
  const submit = form.handleSubmit(async ({ name }) => {
    try {
      await onSubmit(name);
    } catch (err) {
      applyServerErrors(err, form.setError, ['name']);
    }
  });
  return (
    <Dialog open onClose={onClose} aria-labelledby="bench-name-title" fullWidth maxWidth="xs">
      <form noValidate onSubmit={submit}>
        <DialogTitle id="bench-name-title">{title}</DialogTitle>
        <DialogContent>
          {text && <DialogContentText sx={{ mb: 2 }}>{text}</DialogContentText>}
          <FormTextField
            control={form.control}
            name="name"
            label="machineScreens.benches.name"
            autoFocus
            autoComplete="off"
            sx={{ mt: 1 }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('app.cancel')}</Button>
          <SubmitButton saving={form.formState.isSubmitting} label={submitLabel} />
        </DialogActions>
      </form>
    </Dialog>
  );
}
