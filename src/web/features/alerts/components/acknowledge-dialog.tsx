/** Acknowledging an alert: the assignable cause and the corrective action, checked by the server's schema. */
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { acknowledgeInput, type AlertItem } from '../../../../shared/contract/alerts';
import { applyServerErrors, FormTextField, SubmitButton, zodFormResolver } from '../../../components/form';
import { useAcknowledgeAlert } from '../api';

export function AcknowledgeDialog({ alert, onClose }: { alert: AlertItem; onClose: () => void }) {
  const { t } = useTranslation();
  const acknowledge = useAcknowledgeAlert();
  const form = useForm({ resolver: zodFormResolver(acknowledgeInput), defaultValues: { cause: '', action: '' } });
  const submit = form.handleSubmit(async (body) => {
    try {
      await acknowledge.mutateAsync({ id: alert.id, body });
      toast.success(t('alerts.inbox.done'));
      onClose();
    } catch (err) {
      applyServerErrors(err, form.setError, ['cause', 'action']);
    }
  });
  return (
    <Dialog open onClose={onClose} aria-labelledby="acknowledge-title" fullWidth maxWidth="sm">
      <form noValidate onSubmit={submit}>
        <DialogTitle id="acknowledge-title">{t('alerts.inbox.acknowledgeTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{alert.summary}</DialogContentText>
          <FormTextField
            control={form.control}
            name="cause"
            label="alerts.inbox.cause"
            helperText={t('alerts.inbox.causeHelp')}
            multiline
            minRows={2}
            autoFocus
            sx={{ mb: 2 }}
          />
          <FormTextField
            control={form.control}
            name="action"
            label="alerts.inbox.action"
            helperText={t('alerts.inbox.actionHelp')}
            multiline
            minRows={2}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('alerts.inbox.cancel')}</Button>
          <SubmitButton saving={form.formState.isSubmitting} label="alerts.inbox.save" />
        </DialogActions>
      </form>
    </Dialog>
  );
}
