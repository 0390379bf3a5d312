/**
 * A product's or a bench's alert thresholds: first-pass yield of the last N units, and for a bench its
 * silence in working hours and the baseline its run rules read. Checked by the server's own schema; a blank
 * figure switches that alert off. Benches are the administrators' (as on the Benches screen).
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { thresholdsInput, type Thresholds } from '../../../../shared/contract/alerts';
import { applyServerErrors, FormTextField, SubmitButton, zodFormResolver } from '../../../components/form';
import { ProductPicker, type ProductOption } from '../../../components/product-picker';
import { useAppAbility } from '../../../lib/ability';
import { useMachineOptions } from '../../machines/api';
import { useProductOptions } from '../../products/api';
import { useSetThresholds, useThresholds, type ThresholdTarget } from '../api';

const DAYS = [1, 2, 3, 4, 5, 6, 7] as const;
const FIELDS = [
  'yieldUnits',
  'yieldMinPercent',
  'silenceMinutes',
  'workDays',
  'workStart',
  'workEnd',
  'timeZone',
  'baselineFrom',
  'baselineTo',
] as const;

/** The form's values: figures as text, blank for "off". */
function formValues(t: Thresholds) {
  const text = (v: number | null) => (v === null ? '' : String(v));
  return {
    yieldUnits: text(t.yieldUnits),
    yieldMinPercent: text(t.yieldMinPercent),
    silenceMinutes: text(t.silenceMinutes),
    workDays: t.workDays,
    workStart: t.workStart,
    workEnd: t.workEnd,
    timeZone: t.timeZone,
    baselineFrom: t.baselineFrom ?? '',
    baselineTo: t.baselineTo ?? '',
  };
}

function ThresholdsForm({ target, current, onClose }: { target: ThresholdTarget; current: Thresholds; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSetThresholds();
  const bench = target.kind === 'machines';
  const form = useForm({ resolver: zodFormResolver(thresholdsInput), defaultValues: formValues(current) });
  const submit = form.handleSubmit(async (body) => {
    try {
      await save.mutateAsync({ target, body });
      toast.success(t('alerts.thresholds.saved'));
      onClose();
    } catch (err) {
      applyServerErrors(err, form.setError, [...FIELDS]);
    }
  });
  return (
    <form noValidate onSubmit={submit} data-testid="thresholds-form">
      <DialogContent sx={{ pt: 1 }}>
        <DialogContentText sx={{ mb: 2 }}>{t('alerts.thresholds.off')}</DialogContentText>
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2 }}>
          <FormTextField control={form.control} name="yieldUnits" label="alerts.thresholds.yieldUnits" inputMode="numeric" />
          <FormTextField control={form.control} name="yieldMinPercent" label="alerts.thresholds.yieldMinPercent" inputMode="decimal" />
          {bench && (
            <>
              <FormTextField control={form.control} name="silenceMinutes" label="alerts.thresholds.silenceMinutes" inputMode="numeric" />
              <FormTextField control={form.control} name="timeZone" label="alerts.thresholds.timeZone" />
              <FormTextField control={form.control} name="workStart" label="alerts.thresholds.workStart" type="time" />
              <FormTextField control={form.control} name="workEnd" label="alerts.thresholds.workEnd" type="time" />
            </>
          )}
          <FormTextField control={form.control} name="baselineFrom" label="alerts.thresholds.baselineFrom" type="date" />
          <FormTextField control={form.control} name="baselineTo" label="alerts.thresholds.baselineTo" type="date" />
        </Box>
        {bench && (
          <Controller
            control={form.control}
            name="workDays"
            render={({ field }) => {
              const days = field.value ?? [];
              return (
                <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, mt: 2 }}>
                  <Typography component="legend" variant="body2" color="text.secondary">
                    {t('alerts.thresholds.workDays')}
                  </Typography>
                  <FormGroup row>
                    {DAYS.map((d) => (
                      <FormControlLabel
                        key={d}
                        label={t(`alerts.thresholds.days.${d}`)}
                        control={
                          <Checkbox
                            checked={days.includes(d)}
                            onChange={(e) => field.onChange(e.target.checked ? [...days, d].sort() : days.filter((x) => x !== d))}
                          />
                        }
                      />
                    ))}
                  </FormGroup>
                </Box>
              );
            }}
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('alerts.inbox.cancel')}</Button>
        <SubmitButton saving={form.formState.isSubmitting} label="alerts.thresholds.save" />
      </DialogActions>
    </form>
  );
}

export function ThresholdsDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const canBenches = useAppAbility().can('update', 'Machine');
  const benches = useMachineOptions(canBenches);
  const [kind, setKind] = useState<ThresholdTarget['kind']>('products');
  const [product, setProduct] = useState<ProductOption | null>(null);
  const [benchId, setBenchId] = useState('');
  const target: ThresholdTarget | null =
    kind === 'products' ? (product ? { kind, id: product.id } : null) : benchId ? { kind, id: benchId } : null;
  const current = useThresholds(target);
  return (
    <Dialog open onClose={onClose} aria-labelledby="thresholds-title" fullWidth maxWidth="sm">
      <DialogTitle id="thresholds-title">{t('alerts.thresholds.title')}</DialogTitle>
      <DialogContent sx={{ pb: 0 }}>
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 2fr' }, gap: 2, pt: 1 }}>
          <TextField
            select
            size="small"
            id="thresholds-kind"
            label={t('alerts.thresholds.for')}
            value={kind}
            onChange={(e) => setKind(e.target.value as ThresholdTarget['kind'])}
          >
            <MenuItem value="products">{t('alerts.inbox.product')}</MenuItem>
            {canBenches && <MenuItem value="machines">{t('alerts.inbox.bench')}</MenuItem>}
          </TextField>
          {kind === 'products' ? (
            <ProductPicker
              useOptions={useProductOptions}
              id="thresholds-product"
              label={t('alerts.inbox.product')}
              value={product}
              size="small"
              onChange={setProduct}
            />
          ) : (
            <TextField
              select
              size="small"
              id="thresholds-bench"
              label={t('alerts.inbox.bench')}
              value={benchId}
              onChange={(e) => setBenchId(e.target.value)}
            >
              {(benches.data?.items ?? []).map((m) => (
                <MenuItem key={m.id} value={m.id}>
                  {m.name}
                </MenuItem>
              ))}
            </TextField>
          )}
        </Box>
      </DialogContent>
      {target && current.data ? (
        <ThresholdsForm key={`${target.kind}:${target.id}`} target={target} current={current.data} onClose={onClose} />
      ) : (
        <DialogActions>
          <Button onClick={onClose}>{t('alerts.inbox.cancel')}</Button>
        </DialogActions>
      )}
    </Dialog>
  );
}
