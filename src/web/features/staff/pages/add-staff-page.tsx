import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { staffInput } from '../../../../shared/contract/staff';
import {
  applyServerErrors,
  FormSelectField,
  FormTextField,
  SubmitButton,
  useUnsavedChangesWarning,
  zodFormResolver,
} from '../../../components/form';
import { PageHeader } from '../../../components/page-header';
import { notifySuccess } from '../../../lib/toast';
import { useAddStaff } from '../api';
import { ROLE_OPTIONS } from '../components/roles';
import { InspectorFields } from '../components/inspector-fields';

export default function AddStaffPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const add = useAddStaff();
  const form = useForm({
    resolver: zodFormResolver(staffInput),
    defaultValues: { name: '', email: '', password: '', role: 'staff' as const, inspector: false, inspectorTitle: '' },
  });
  const { dialog, allowLeave } = useUnsavedChangesWarning(form.formState.isDirty && !form.formState.isSubmitSuccessful);

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await add.mutateAsync(values);
      allowLeave();
      notifySuccess('staff.added');
      void navigate('/staffs');
    } catch (err) {
      applyServerErrors(err, form.setError, ['name', 'email', 'password', 'role', 'inspector', 'inspectorTitle']);
    }
  });

  return (
    <>
      <PageHeader title="pages.addStaff" />
      <Card>
        <CardContent>
          <form noValidate onSubmit={onSubmit} aria-label={t('pages.addStaff')}>
            <Grid container spacing={2.5}>
              <Grid size={{ xs: 12, md: 6 }}>
                <FormTextField control={form.control} name="name" label="staffScreens.name" autoComplete="off" autoFocus />
              </Grid>
              <Grid size={{ xs: 12, md: 6 }}>
                <FormTextField control={form.control} name="email" label="staffScreens.email" type="email" autoComplete="off" />
              </Grid>
              <Grid size={{ xs: 12, md: 6 }}>
                <FormTextField
                  control={form.control}
                  name="password"
                  label="staffScreens.password"
                  type="password"
                  autoComplete="new-password"
                  hint="authScreens.passwordHint"
                />
              </Grid>
              <Grid size={{ xs: 12, md: 6 }}>
                <FormSelectField control={form.control} name="role" label="staffScreens.role" options={ROLE_OPTIONS} />
              </Grid>
              <Grid size={{ xs: 12, md: 6 }}>
                <InspectorFields control={form.control} />
              </Grid>
            </Grid>
            <Stack direction="row" spacing={1.5} sx={{ mt: 3 }}>
              <SubmitButton saving={form.formState.isSubmitting} label="staffScreens.add" />
              <Button component={RouterLink} to="/staffs" variant="outlined" color="inherit">
                {t('app.cancel')}
              </Button>
            </Stack>
          </form>
        </CardContent>
      </Card>
      {dialog}
    </>
  );
}
