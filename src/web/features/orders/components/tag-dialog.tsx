/**
 * Corrects a unit's tag number on a released delivery: the server issues the unit's certificate again with
 * the new tag as a new version (the buyer's link serves it, the earlier one stays listed as superseded).
 */
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { deliveryUnitTagInput } from '../../../../shared/contract/orders';
import { applyServerErrors, FormTextField, SubmitButton, zodFormResolver } from '../../../components/form';
import { notifySuccess } from '../../../lib/toast';
import { useUpdateUnitTag } from '../api';

const resolver = zodFormResolver(deliveryUnitTagInput);

export function TagDialog({
  deliveryId,
  unit,
  onClose,
}: {
  deliveryId: string;
  unit: { serial: string; tag: string };
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const update = useUpdateUnitTag(deliveryId);
  const form = useForm({ resolver, defaultValues: { tag: unit.tag } });
  const submit = form.handleSubmit(async ({ tag }) => {
    try {
      await update.mutateAsync({ serial: unit.serial, tag: tag ?? '' });
      notifySuccess('orderScreens.tag.saved', { serial: unit.serial });
      onClose();
    } catch (err) {
      applyServerErrors(err, form.setError, ['tag']);
    }
  });
  return (
    <Dialog open onClose={onClose} aria-labelledby="tag-title" fullWidth maxWidth="sm">
      <form noValidate onSubmit={submit}>
        <DialogTitle id="tag-title">{t('orderScreens.tag.title', { serial: unit.serial })}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{t('orderScreens.tag.text')}</DialogContentText>
          <FormTextField control={form.control} name="tag" label="orderScreens.units.tag" autoFocus />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('app.close')}</Button>
          <SubmitButton saving={form.formState.isSubmitting} label="orderScreens.tag.save" />
        </DialogActions>
      </form>
    </Dialog>
  );
}
