/**
 * Add or edit a heat: its number and material, the supplier and their certificate (number, type, date), the
 * status (a hold needs its reason), what the mill certificate reports in EN 10168's groups, and the mill
 * certificate itself (a PDF of at most 20 MB, checked by the server before it is stored). Checked with the
 * schema the server uses (heatInput). The heat is saved first and the file sent after it: a refused file
 * leaves the saved heat, and the dialog stays open on it to try another file.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { usePhone } from '../../../lib/use-phone';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  chemistryToText,
  HEAT_CERTIFICATE_MAX_BYTES,
  HEAT_CERTIFICATE_TYPES,
  HEAT_STATUSES,
  heatInput,
  materialName,
  type Heat,
  type HeatInput,
} from '../../../../shared/contract/materials';
import { labelled } from '../../../../shared/i18n/punctuation';
import { applyServerErrors, FormSelectField, FormTextField, SubmitButton, zodFormResolver } from '../../../components/form';
import { formatNumber } from '../../../components/format';
import { errorMessage } from '../../../lib/errors';
import { notifyError, notifySuccess } from '../../../lib/toast';
import { certificateHref, useMaterials, useSaveHeat, useUploadCertificate } from '../api';

const FIELDS = [
  'number',
  'materialId',
  'supplier',
  'certificateNumber',
  'certificateType',
  'date',
  'status',
  'holdNote',
  'properties.chemistry',
  'properties.tensileStrength',
  'properties.yieldStrength',
  'properties.elongation',
] as const;

const text = (n: number | null) => (n === null ? '' : String(n));

function defaults(heat: Heat | null, materialId: string | undefined): HeatInput {
  if (!heat)
    return {
      number: '',
      materialId: materialId ?? '',
      supplier: '',
      certificateNumber: '',
      certificateType: '3.1',
      date: '',
      status: 'released',
      holdNote: '',
      properties: { chemistry: '', tensileStrength: '', yieldStrength: '', elongation: '' },
    };
  const p = heat.properties;
  return {
    number: heat.number,
    materialId: heat.materialId,
    supplier: heat.supplier,
    certificateNumber: heat.certificateNumber,
    certificateType: heat.certificateType,
    date: heat.date,
    status: heat.status,
    holdNote: heat.holdNote,
    properties: {
      chemistry: chemistryToText(p.chemistry),
      tensileStrength: text(p.tensileStrength),
      yieldStrength: text(p.yieldStrength),
      elongation: text(p.elongation),
    },
  };
}

export function HeatDialog({ heat: initial, materialId, onClose }: { heat: Heat | null; materialId?: string; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const phone = usePhone();
  const materials = useMaterials();
  const save = useSaveHeat();
  const upload = useUploadCertificate();
  const [heat, setHeat] = useState(initial);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const form = useForm<HeatInput>({ resolver: zodFormResolver(heatInput), defaultValues: defaults(initial, materialId) });
  const status = useWatch({ control: form.control, name: 'status' });

  const chooseFile = (chosen: File | null) => {
    setFileError(null);
    setFile(chosen);
    if (chosen && chosen.size > HEAT_CERTIFICATE_MAX_BYTES) setFileError(t('materials.certificateTooLarge', { max: '20 MB' }));
  };

  const submit = form.handleSubmit(async (v) => {
    if (fileError) return;
    let saved: Heat;
    try {
      saved = await save.mutateAsync({ id: heat?.id, input: heatInput.parse(v) });
    } catch (err) {
      if (!applyServerErrors(err, form.setError, FIELDS)) notifyError(err);
      return;
    }
    setHeat(saved);
    form.reset(defaults(saved, undefined));
    if (file) {
      try {
        saved = await upload.mutateAsync({ id: saved.id, file });
        setFile(null);
      } catch (err) {
        setFileError(errorMessage(t, err));
        return;
      }
    }
    notifySuccess(initial ? 'materials.heats.updated' : 'materials.heats.added', { number: saved.number });
    onClose();
  });

  const list = materials.data ?? [];
  return (
    <Dialog open onClose={onClose} aria-labelledby="heat-dialog-title" fullScreen={phone} fullWidth maxWidth="md">
      <Box component="form" noValidate onSubmit={submit} data-testid="heat-form">
        <DialogTitle id="heat-dialog-title">
          {heat ? t('materials.heats.editTitle', { number: heat.number }) : t('materials.heats.add')}
        </DialogTitle>
        <DialogContent>
          <Box sx={{ display: 'grid', gap: 2, pt: 1, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            <FormTextField control={form.control} name="number" label="materials.fields.heatNumber" autoFocus autoComplete="off" />
            <FormTextField control={form.control} name="materialId" label="materials.fields.material" select>
              {list.map((m) => (
                <MenuItem key={m.id} value={m.id}>
                  {materialName(m)}
                </MenuItem>
              ))}
            </FormTextField>
            <FormTextField control={form.control} name="supplier" label="materials.fields.supplier" autoComplete="off" />
            <FormTextField control={form.control} name="certificateNumber" label="materials.fields.certificateNumber" autoComplete="off" />
            <FormSelectField
              control={form.control}
              name="certificateType"
              label="materials.fields.certificateType"
              options={HEAT_CERTIFICATE_TYPES.map((v) => ({ value: v, label: `materials.certificateTypes.${v.replace('.', '_')}` }))}
            />
            <FormTextField control={form.control} name="date" label="materials.fields.date" type="date" />
            <FormSelectField
              control={form.control}
              name="status"
              label="materials.fields.status"
              options={HEAT_STATUSES.map((s) => ({ value: s, label: `materials.statuses.${s}` }))}
            />
            {status === 'hold' && (
              <FormTextField control={form.control} name="holdNote" label="materials.fields.holdNote" autoComplete="off" />
            )}
          </Box>
          <Typography component="h3" variant="subtitle2" sx={{ mt: 3, mb: 1 }}>
            {t('materials.heats.propertiesHeading')}
          </Typography>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr 1fr' } }}>
            <FormTextField
              sx={{ gridColumn: '1 / -1' }}
              control={form.control}
              name="properties.chemistry"
              label="materials.fields.chemistry"
              hint="materials.fields.chemistryHint"
              autoComplete="off"
            />
            <FormTextField
              control={form.control}
              name="properties.tensileStrength"
              label="materials.fields.tensileStrength"
              inputMode="decimal"
            />
            <FormTextField
              control={form.control}
              name="properties.yieldStrength"
              label="materials.fields.yieldStrength"
              inputMode="decimal"
            />
            <FormTextField control={form.control} name="properties.elongation" label="materials.fields.elongation" inputMode="decimal" />
          </Box>
          {heat && heat.findings.length > 0 && (
            <Alert severity="warning" sx={{ mt: 2 }} data-testid="heat-findings">
              {t('materials.heats.findings', {
                list: heat.findings.map((f) => `${f.property} ${formatNumber(lang, f.value)}`).join(lang === 'zh' ? '、' : ', '),
              })}
            </Alert>
          )}
          <Typography component="h3" variant="subtitle2" sx={{ mt: 3, mb: 1 }}>
            {t('materials.heats.certificateHeading')}
          </Typography>
          {heat?.file && (
            <Typography variant="body2" sx={{ mb: 1 }}>
              {labelled(lang, t('materials.heats.stored'), '')}
              <Link href={certificateHref(heat.id)} target="_blank" rel="noopener">
                {heat.file.name}
              </Link>
              {` (${formatNumber(lang, heat.file.bytes / 1024, 0)} KB)`}
            </Typography>
          )}
          <Button component="label" variant="outlined" size="small">
            {t(heat?.file ? 'materials.heats.replaceFile' : 'materials.heats.chooseFile')}
            <input
              hidden
              type="file"
              accept="application/pdf,.pdf"
              aria-label={t('materials.heats.chooseFile')}
              onChange={(e) => chooseFile(e.target.files?.[0] ?? null)}
            />
          </Button>
          {file && (
            <Typography variant="body2" component="span" sx={{ ml: 1 }} data-testid="heat-file">
              {file.name}
            </Typography>
          )}
          <Typography
            variant="body2"
            color={fileError ? 'error' : 'text.secondary'}
            sx={{ mt: 0.5 }}
            role={fileError ? 'alert' : undefined}
          >
            {fileError ?? t('materials.heats.fileHint')}
          </Typography>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('app.cancel')}</Button>
          <SubmitButton saving={form.formState.isSubmitting} label="app.save" />
        </DialogActions>
      </Box>
    </Dialog>
  );
}
