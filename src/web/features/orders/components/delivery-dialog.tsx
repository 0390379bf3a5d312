/** A new delivery (its purchase order, number and date) or the number and date of an open one. */
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { deliveryInput, type DeliveryInput } from '../../../../shared/contract/orders';
import { applyServerErrors, FormTextField, SubmitButton, useFieldErrorText, zodFormResolver } from '../../../components/form';
import { usePurchaseOrderOptions } from '../api';
import { purchaseOrderOption, RecordPicker, type PickedRecord } from './record-picker';

const resolver = zodFormResolver(deliveryInput);

export function DeliveryDialog({
  title,
  submitLabel,
  initial,
  initialOrder,
  onSubmit,
  onClose,
}: {
  /** i18n key */
  title: string;
  /** i18n key */
  submitLabel: string;
  initial?: { purchaseOrderId: string; number: string; date: string };
  /** the order, shown (and not changeable) when the delivery exists */
  initialOrder?: PickedRecord;
  onSubmit: (values: DeliveryInput) => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useFieldErrorText();
  const form = useForm({
    resolver,
    defaultValues: initial ?? { purchaseOrderId: '', number: '', date: new Date().toISOString().slice(0, 10) },
  });
  const [picked, setPicked] = useState<PickedRecord | null>(initialOrder ?? null);
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (err) {
      applyServerErrors(err, form.setError, ['purchaseOrderId', 'number', 'date']);
    }
  });
  return (
    <Dialog open onClose={onClose} aria-labelledby="delivery-dialog-title" fullWidth maxWidth="sm">
      <form noValidate onSubmit={submit}>
        <DialogTitle id="delivery-dialog-title">{t(title)}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ mt: 1 }}>
            {!initialOrder && (
              <Controller
                control={form.control}
                name="purchaseOrderId"
                render={({ field, fieldState }) => (
                  <RecordPicker
                    id="field-purchaseOrderId"
                    label={t('orderScreens.deliveries.fields.purchaseOrder')}
                    value={field.value && picked?.id === field.value ? picked : null}
                    onChange={(v) => {
                      setPicked(v);
                      field.onChange(v?.id ?? '');
                    }}
                    onBlur={field.onBlur}
                    useOptions={usePurchaseOrderOptions}
                    toOption={purchaseOrderOption}
                    error={!!fieldState.error}
                    helperText={errorText(fieldState.error?.message)}
                    required
                  />
                )}
              />
            )}
            <FormTextField control={form.control} name="number" label="orderScreens.deliveries.fields.number" autoComplete="off" required />
            <FormTextField control={form.control} name="date" type="date" label="orderScreens.deliveries.fields.date" required />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('app.cancel')}</Button>
          <SubmitButton saving={form.formState.isSubmitting} label={submitLabel} />
        </DialogActions>
      </form>
    </Dialog>
  );
}
