/**
 * The witness of a delivery whose order asks for EN 10204 3.2 certificates: the purchaser's or a third
 * party's inspector, their organisation, the day and the tests they witnessed. Recorded (and corrected) while
 * the delivery is open; the release refuses a 3.2 delivery without it, and every certificate names it.
 */
import EditOutlined from '@mui/icons-material/EditOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { DeliveryDetail } from '../../../../shared/contract/orders';
import { TEST_TYPES } from '../../../../shared/contract/test-types';
import { deliveryWitnessInput, type DeliveryWitnessInput } from '../../../../shared/contract/witness';
import { formatDate, formatDateTime } from '../../../components/format';
import { applyServerErrors, FormTextField, SubmitButton, useFieldErrorText, zodFormResolver } from '../../../components/form';
import { notifySuccess } from '../../../lib/toast';
import { useRecordWitness } from '../api';
import { Facts } from './release-card';

export function WitnessCard({ delivery: d, canEdit }: { delivery: DeliveryDetail; canEdit: boolean }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [editing, setEditing] = useState(false);
  const w = d.witness;
  const tests = (w?.tests ?? []).map((x) => t(`machineScreens.testTypes.${x}`)).join(lang === 'zh' ? '、' : ', ');
  return (
    <Card data-testid="witness-card">
      <CardContent>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap', mb: 2 }}>
          <Typography variant="h6" component="h2" sx={{ fontWeight: 600 }}>
            {t('orderScreens.witness.title')}
          </Typography>
          <Box sx={{ flex: 1 }} />
          {canEdit && (
            <Button startIcon={<EditOutlined />} color="inherit" onClick={() => setEditing(true)}>
              {t(w ? 'orderScreens.witness.edit' : 'orderScreens.witness.record')}
            </Button>
          )}
        </Box>
        {w ? (
          <Stack spacing={1.5}>
            <Facts
              items={[
                ['orderScreens.witness.fields.name', w.name],
                ['orderScreens.witness.fields.organisation', w.organisation],
                ['orderScreens.witness.fields.witnessedOn', formatDate(lang, w.witnessedOn)],
                ['orderScreens.witness.fields.tests', tests],
              ]}
            />
            <Typography variant="caption" color="text.secondary">
              {t('orderScreens.witness.recordedBy', { name: w.recordedBy, at: formatDateTime(lang, w.recordedAt) })}
            </Typography>
          </Stack>
        ) : (
          <Alert severity={d.status === 'open' ? 'warning' : 'info'}>{t('orderScreens.witness.missing')}</Alert>
        )}
      </CardContent>
      {editing && <WitnessDialog delivery={d} onClose={() => setEditing(false)} />}
    </Card>
  );
}

const resolver = zodFormResolver(deliveryWitnessInput);

function WitnessDialog({ delivery: d, onClose }: { delivery: DeliveryDetail; onClose: () => void }) {
  const { t } = useTranslation();
  const errorText = useFieldErrorText();
  const record = useRecordWitness(d.id);
  const form = useForm<DeliveryWitnessInput, unknown, ReturnType<typeof deliveryWitnessInput.parse>>({
    resolver,
    defaultValues: {
      name: d.witness?.name ?? '',
      organisation: d.witness?.organisation ?? '',
      witnessedOn: d.witness?.witnessedOn ?? new Date().toISOString().slice(0, 10),
      tests: d.witness?.tests ?? [],
    },
  });
  const submit = form.handleSubmit(async (values) => {
    try {
      await record.mutateAsync(values);
      notifySuccess('orders.witness.recorded');
      onClose();
    } catch (err) {
      applyServerErrors(err, form.setError, ['name', 'organisation', 'witnessedOn', 'tests']);
    }
  });
  return (
    <Dialog open onClose={onClose} aria-labelledby="witness-title" fullWidth maxWidth="sm">
      <form noValidate onSubmit={submit}>
        <DialogTitle id="witness-title">{t('orderScreens.witness.dialogTitle', { number: d.number })}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{t('orderScreens.witness.text')}</DialogContentText>
          <Stack spacing={2}>
            <FormTextField control={form.control} name="name" label="orderScreens.witness.fields.name" required autoFocus />
            <FormTextField control={form.control} name="organisation" label="orderScreens.witness.fields.organisation" required />
            <FormTextField control={form.control} name="witnessedOn" type="date" label="orderScreens.witness.fields.witnessedOn" required />
            <Controller
              control={form.control}
              name="tests"
              render={({ field, fieldState }) => (
                <FormControl error={!!fieldState.error} component="fieldset" required>
                  <FormLabel component="legend">{t('orderScreens.witness.fields.tests')}</FormLabel>
                  <FormGroup row>
                    {TEST_TYPES.map((type) => (
                      <FormControlLabel
                        key={type}
                        label={t(`machineScreens.testTypes.${type}`)}
                        control={
                          <Checkbox
                            checked={(field.value ?? []).includes(type)}
                            onChange={(e) =>
                              field.onChange(
                                e.target.checked ? [...(field.value ?? []), type] : (field.value ?? []).filter((x) => x !== type),
                              )
                            }
                          />
                        }
                      />
                    ))}
                  </FormGroup>
                  {fieldState.error && <FormHelperText>{errorText(fieldState.error.message)}</FormHelperText>}
                </FormControl>
              )}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('app.close')}</Button>
          <SubmitButton saving={form.formState.isSubmitting} label="app.save" />
        </DialogActions>
      </form>
    </Dialog>
  );
}
