/**
 * The frame of a record's form on its add and edit screens: a card holding the form and its grid of
 * fields, Save and Cancel, the unsaved-changes warning, and the server's field errors on their fields
 * (what no field takes becomes a toast).
 *
 *   const form = useForm<FormValues, unknown, ProductValues>({ resolver, defaultValues });
 *   return (
 *     <RecordForm form={form} fields={PRODUCT_FIELDS} save={save} onSaved={onSaved} submitLabel="products.add" cancelTo="/products">
 *       <Grid size={{ xs: 12, md: 6 }}><FormTextField control={form.control} name="name" … /></Grid>
 *     </RecordForm>
 *   );
 *
 * On the page, `onSaved={useAfterSave('products.added', '/products')}` says so and goes back to the list.
 */
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import type { ReactNode } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { notifySuccess } from '../../lib/toast';
import { applyServerErrors } from './server-errors';
import { SubmitButton } from './submit-button';
import { useUnsavedChangesWarning } from './unsaved-changes';

export interface RecordFormProps<V extends FieldValues, Out> {
  form: UseFormReturn<V, unknown, Out>;
  /** the form's field names: server errors for them land on the field */
  fields: readonly string[];
  save: (values: Out) => Promise<unknown>;
  onSaved: () => void;
  /** i18n key of the submit button (also names the form) */
  submitLabel: string;
  /** where Cancel goes */
  cancelTo: string;
  /** the fields, as Grid items */
  children: ReactNode;
}

export function RecordForm<V extends FieldValues, Out>({
  form,
  fields,
  save,
  onSaved,
  submitLabel,
  cancelTo,
  children,
}: RecordFormProps<V, Out>) {
  const { t } = useTranslation();
  const { dialog, allowLeave } = useUnsavedChangesWarning(form.formState.isDirty);
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await save(values);
      allowLeave();
      onSaved();
    } catch (err) {
      applyServerErrors(err, form.setError, fields);
    }
  });
  return (
    <Card>
      <CardContent>
        <form noValidate onSubmit={onSubmit} aria-label={t(submitLabel)}>
          <Grid container spacing={2.5}>
            {children}
          </Grid>
          <Stack direction="row" spacing={1.5} sx={{ mt: 3 }}>
            <SubmitButton saving={form.formState.isSubmitting} label={submitLabel} />
            <Button component={RouterLink} to={cancelTo} variant="outlined" color="inherit">
              {t('app.cancel')}
            </Button>
          </Stack>
        </form>
        {dialog}
      </CardContent>
    </Card>
  );
}

/** After a save: a toast (`message`, an i18n key) and back to `to`. */
export function useAfterSave(message: string, to: string): () => void {
  const navigate = useNavigate();
  return () => {
    notifySuccess(message);
    void navigate(to);
  };
}
