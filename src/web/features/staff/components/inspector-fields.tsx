/**
 * Whether a staff member is an authorised inspection representative (may release serial ranges; named on
 * inspection certificates 3.1), and the title printed beside the name: on the add form and in its own dialog,
 * which also keeps the inspector's stamp.
 */
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { Controller, useForm, type Control, type FieldValues, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { inspectorRules, inspectorTitleField, type StaffMember } from '../../../../shared/contract/staff';
import { applyServerErrors, FormTextField, SubmitButton, zodFormResolver } from '../../../components/form';
import { notifySuccess } from '../../../lib/toast';
import { useUpdateStaff } from '../api';
import { StampField } from './stamp-field';

/** The switch and the title, for any form with the fields `inspector` and `inspectorTitle`. */
export function InspectorFields<T extends FieldValues>({ control }: { control: Control<T> }) {
  const { t } = useTranslation();
  return (
    <Stack spacing={1.5}>
      <div>
        <Controller
          control={control}
          name={'inspector' as Path<T>}
          render={({ field }) => (
            <FormControlLabel
              control={
                <Switch
                  checked={!!field.value}
                  onChange={(e) => field.onChange(e.target.checked)}
                  inputProps={{ 'aria-describedby': 'inspector-hint' }}
                />
              }
              label={t('staffScreens.inspector')}
            />
          )}
        />
        <Typography id="inspector-hint" variant="body2" color="text.secondary">
          {t('staffScreens.inspectorHint')}
        </Typography>
      </div>
      <FormTextField
        control={control}
        name={'inspectorTitle' as Path<T>}
        label="staffScreens.inspectorTitle"
        hint="staffScreens.inspectorTitleHint"
        autoComplete="off"
      />
    </Stack>
  );
}

const inspectorForm = z.object({ inspector: z.boolean(), inspectorTitle: inspectorTitleField() }).superRefine(inspectorRules);

export function InspectorDialog({ member, onClose }: { member: StaffMember; onClose: () => void }) {
  const { t } = useTranslation();
  const update = useUpdateStaff();
  const form = useForm({
    resolver: zodFormResolver(inspectorForm),
    defaultValues: { inspector: member.inspector, inspectorTitle: member.inspectorTitle },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await update.mutateAsync({ id: member.id, ...values });
      notifySuccess('staff.updated');
      onClose();
    } catch (err) {
      applyServerErrors(err, form.setError, ['inspector', 'inspectorTitle']);
    }
  });
  return (
    <Dialog open onClose={onClose} aria-labelledby="inspector-title" fullWidth maxWidth="sm">
      <form noValidate onSubmit={onSubmit}>
        <DialogTitle id="inspector-title">{t('staffScreens.inspectorOf', { name: member.name })}</DialogTitle>
        <DialogContent>
          <Stack sx={{ pt: 1 }} spacing={3}>
            <InspectorFields control={form.control} />
            <StampField member={member} />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('app.cancel')}</Button>
          <SubmitButton saving={form.formState.isSubmitting} label="app.save" />
        </DialogActions>
      </form>
    </Dialog>
  );
}
