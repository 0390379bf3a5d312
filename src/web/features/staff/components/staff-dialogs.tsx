/** Dialogs of the staff list: change role and set a new password. */
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { staffPasswordReset, type StaffMember } from '../../../../shared/contract/staff';
import { roleField } from '../../../../shared/contract/auth';
import { applyServerErrors, FormSelectField, FormTextField, SubmitButton, zodFormResolver } from '../../../components/form';
import { notifySuccess } from '../../../lib/toast';
import { useResetStaffPassword, useUpdateStaff } from '../api';
import { ROLE_OPTIONS } from './roles';

const roleForm = z.object({ role: roleField });

export function RoleDialog({ member, onClose }: { member: StaffMember; onClose: () => void }) {
  const { t } = useTranslation();
  const update = useUpdateStaff();
  const form = useForm({ resolver: zodFormResolver(roleForm), defaultValues: { role: member.role } });
  const onSubmit = form.handleSubmit(async ({ role }) => {
    try {
      await update.mutateAsync({ id: member.id, role });
      notifySuccess('staff.updated');
      onClose();
    } catch (err) {
      applyServerErrors(err, form.setError, ['role']);
    }
  });
  return (
    <Dialog open onClose={onClose} aria-labelledby="role-title" fullWidth maxWidth="xs">
      <form noValidate onSubmit={onSubmit}>
        <DialogTitle id="role-title">{t('staffScreens.changeRoleOf', { name: member.name })}</DialogTitle>
        <DialogContent>
          <Stack sx={{ pt: 1 }}>
            <FormSelectField control={form.control} name="role" label="staffScreens.role" options={ROLE_OPTIONS} />
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

const passwordForm = staffPasswordReset
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, { path: ['confirmPassword'], error: 'validation.passwordsDoNotMatch' });

export function PasswordDialog({ member, onClose }: { member: StaffMember; onClose: () => void }) {
  const { t } = useTranslation();
  const reset = useResetStaffPassword();
  const form = useForm({ resolver: zodFormResolver(passwordForm), defaultValues: { password: '', confirmPassword: '' } });
  const onSubmit = form.handleSubmit(async ({ password }) => {
    try {
      await reset.mutateAsync({ id: member.id, password });
      notifySuccess('staff.passwordSet');
      onClose();
    } catch (err) {
      applyServerErrors(err, form.setError, ['password']);
    }
  });
  return (
    <Dialog open onClose={onClose} aria-labelledby="password-title" fullWidth maxWidth="xs">
      <form noValidate onSubmit={onSubmit}>
        <DialogTitle id="password-title">{t('staffScreens.resetPasswordOf', { name: member.name })}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{t('staffScreens.resetPasswordText')}</DialogContentText>
          <Stack spacing={2}>
            <FormTextField
              control={form.control}
              name="password"
              label="authScreens.newPassword"
              type="password"
              autoComplete="new-password"
              hint="authScreens.passwordHint"
            />
            <FormTextField
              control={form.control}
              name="confirmPassword"
              label="authScreens.confirmPassword"
              type="password"
              autoComplete="new-password"
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('app.cancel')}</Button>
          <SubmitButton saving={form.formState.isSubmitting} label="staffScreens.setPassword" />
        </DialogActions>
      </form>
    </Dialog>
  );
}
