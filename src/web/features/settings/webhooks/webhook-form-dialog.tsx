/**
 * A new endpoint, or one changed: URL, description, whose systems it is (staff, or one customer), and its events as
 * checkboxes in two groups. The staff group is for an endpoint without a customer, the customer group for
 * one with: choosing a customer switches the groups, so the form cannot ask what the server refuses. The
 * shared schema (webhookInput) checks it here as the server does; the server's own errors (https, the
 * product's own host, an internal address) land on their fields.
 */
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  CUSTOMER_EVENTS,
  STAFF_EVENTS,
  WEBHOOK_EVENTS,
  webhookInput,
  type WebhookEndpoint,
  type WebhookEventType,
  type WebhookValues,
} from '../../../../shared/contract/webhooks';
import { applyServerErrors, FormTextField, SubmitButton, useFieldErrorText, zodFormResolver } from '../../../components/form';
import { useCustomerOptions } from '../../orders/api';

// The server names an event by its place (`events.1`): each lands on the events group.
const FIELDS = ['url', 'events', 'customerId', 'description', ...WEBHOOK_EVENTS.map((_, i) => `events.${i}`)];

export function WebhookFormDialog({
  initial,
  onSubmit,
  onClose,
}: {
  /** an endpoint to change; none: a new one */
  initial?: WebhookEndpoint;
  onSubmit: (v: WebhookValues) => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useFieldErrorText();
  const [q, setQ] = useState('');
  const customers = useCustomerOptions(q);
  const [picked, setPicked] = useState<{ id: string; label: string } | null>(
    initial?.customerId ? { id: initial.customerId, label: initial.customerName ?? '' } : null,
  );
  const form = useForm({
    resolver: zodFormResolver(webhookInput),
    defaultValues: {
      url: initial?.url ?? '',
      events: (initial?.events ?? []) as WebhookEventType[],
      customerId: initial?.customerId ?? (null as string | null),
      description: initial?.description ?? '',
      enabled: initial?.enabled ?? true,
    },
  });
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (err) {
      applyServerErrors(err, form.setError, FIELDS);
    }
  });
  const options = (customers.data?.items ?? []).map((c) => ({ id: c.id, label: `${c.name} (${c.code})` }));
  const eventsError = (() => {
    const e = form.formState.errors.events as unknown as
      { message?: string; root?: { message?: string }; [i: number]: { message?: string } | undefined } | undefined;
    if (!e) return undefined;
    const first = Object.values(e).find((x) => x && typeof x === 'object' && 'message' in x) as { message?: string } | undefined;
    return errorText(e.message ?? e.root?.message ?? first?.message);
  })();

  return (
    <Dialog open onClose={onClose} aria-labelledby="webhook-form-title" fullWidth maxWidth="sm">
      <form noValidate onSubmit={submit}>
        <DialogTitle id="webhook-form-title">{t(initial ? 'webhooks.screen.editTitle' : 'webhooks.screen.addTitle')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ mt: 1 }}>
            <FormTextField
              control={form.control}
              name="url"
              label="webhooks.screen.fields.url"
              hint="webhooks.screen.fields.urlHint"
              required
              autoFocus
              autoComplete="off"
              inputMode="url"
            />
            <Controller
              control={form.control}
              name="customerId"
              render={({ fieldState }) => (
                <Autocomplete
                  id="field-customerId"
                  options={options}
                  value={picked}
                  loading={customers.isPending}
                  loadingText={t('app.loading')}
                  noOptionsText={t('webhooks.screen.fields.noCustomers')}
                  onInputChange={(_, v) => setQ(v)}
                  onChange={(_, v) => {
                    setPicked(v);
                    form.setValue('customerId', v?.id ?? null);
                    // The other audience's events cannot stay chosen.
                    form.setValue('events', []);
                  }}
                  getOptionLabel={(o) => o.label}
                  isOptionEqualToValue={(a, b) => a.id === b.id}
                  renderInput={(params) => (
                    <TextField
                      {...params}
                      label={t('webhooks.screen.fields.customer')}
                      error={!!fieldState.error}
                      helperText={errorText(fieldState.error?.message) ?? t('webhooks.screen.fields.customerHint')}
                    />
                  )}
                />
              )}
            />
            <Controller
              control={form.control}
              name="events"
              render={({ field }) => {
                const list = picked ? CUSTOMER_EVENTS : STAFF_EVENTS;
                const value = (field.value ?? []) as WebhookEventType[];
                return (
                  <FormControl component="fieldset" error={!!eventsError} id="field-events">
                    <FormLabel component="legend">
                      {t(picked ? 'webhooks.screen.fields.customerEvents' : 'webhooks.screen.fields.staffEvents')}
                    </FormLabel>
                    <FormGroup>
                      {list.map((e) => (
                        <FormControlLabel
                          key={e}
                          control={
                            <Checkbox
                              checked={value.includes(e)}
                              onChange={(_, on) => field.onChange(on ? [...value, e] : value.filter((x) => x !== e))}
                            />
                          }
                          label={`${t(`webhooks.screen.events.${e.replace('.', '_')}`)} (${e})`}
                        />
                      ))}
                    </FormGroup>
                    {eventsError && <FormHelperText>{eventsError}</FormHelperText>}
                  </FormControl>
                );
              }}
            />
            <FormTextField control={form.control} name="description" label="webhooks.screen.fields.description" multiline minRows={2} />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('app.cancel')}</Button>
          <SubmitButton saving={form.formState.isSubmitting} label={initial ? 'webhooks.screen.save' : 'webhooks.screen.create'} />
        </DialogActions>
      </form>
    </Dialog>
  );
}
