/**
 * The heats of a range on its edit screen: for each part its product names, the heat its units were made
 * from (heats of that part's material, newest first, those on hold marked), and the per-serial exceptions
 * for a batch made from several heats: how many units have one, the CSV of them (serial, part, heat) to
 * download, and the same CSV taken back. A file with a bad row stores nothing, and every refused row is
 * listed. A 3.1 certificate is held while the body or bonnet has no heat, or its heat is on hold.
 */
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import UploadOutlined from '@mui/icons-material/UploadOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { PARTS, PRESSURE_PARTS, rangeHeatsInput, type Part, type ProductPart } from '../../../../shared/contract/materials';
import { SubmitButton } from '../../../components/form';
import { formatNumber } from '../../../components/format';
import { ApiError } from '../../../lib/api';
import { errorMessage } from '../../../lib/errors';
import { notifySuccess } from '../../../lib/toast';
import { unitHeatsHref, useHeatOptions, useImportUnitHeats, useProductParts, useRangeHeats, useSaveRangeHeats } from '../../materials/api';

type Chosen = Partial<Record<Part, string>>;

export function RangeHeatsCard({ rangeId, productId, canEdit }: { rangeId: string; productId: string; canEdit: boolean }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const parts = useProductParts(productId);
  const heats = useRangeHeats(rangeId);
  const save = useSaveRangeHeats(rangeId);
  const [chosen, setChosen] = useState<Chosen>({});
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    if (heats.data) setChosen(Object.fromEntries(heats.data.heats.map((h) => [h.part, h.heatId])));
  }, [heats.data]);

  const named = PARTS.map((part) => parts.data?.find((p) => p.part === part)).filter((p): p is ProductPart => !!p);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const input = rangeHeatsInput.parse({
      heats: named.filter((p) => chosen[p.part]).map((p) => ({ part: p.part, heatId: chosen[p.part]! })),
    });
    try {
      await save.mutateAsync(input);
      notifySuccess('materials.rangeHeats.saved');
    } catch (err) {
      setFailure(errorMessage(t, err));
    }
  };

  return (
    <Card sx={{ mt: 3 }} component="section" aria-labelledby="range-heats-title" data-testid="range-heats">
      <CardContent>
        <Typography id="range-heats-title" variant="h6" component="h2">
          {t('materials.rangeHeats.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('materials.rangeHeats.hint')}
        </Typography>
        {parts.isSuccess && named.length === 0 ? (
          <Alert severity="info">
            {t('materials.rangeHeats.noParts')}{' '}
            <RouterLink to={`/edit-product/${productId}`}>{t('materials.rangeHeats.toProduct')}</RouterLink>
          </Alert>
        ) : (
          <Box component="form" noValidate onSubmit={submit} aria-label={t('materials.rangeHeats.title')}>
            <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: '1fr 1fr 1fr' } }}>
              {named.map((p) => (
                <HeatPicker
                  key={p.part}
                  part={p}
                  value={chosen[p.part] ?? ''}
                  disabled={!canEdit || heats.isPending}
                  onChange={(v) => setChosen((c) => ({ ...c, [p.part]: v || undefined }))}
                />
              ))}
            </Box>
            {failure && (
              <Alert severity="error" sx={{ mt: 2 }}>
                {failure}
              </Alert>
            )}
            {canEdit && (
              <Stack direction="row" sx={{ mt: 2, justifyContent: 'flex-end' }}>
                <SubmitButton saving={save.isPending} label="materials.rangeHeats.save" />
              </Stack>
            )}
          </Box>
        )}
        <Typography component="h3" variant="subtitle2" sx={{ mt: 3 }}>
          {t('materials.rangeHeats.exceptionsHeading')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }} data-testid="range-heat-exceptions">
          {t('materials.rangeHeats.exceptions', {
            count: heats.data?.exceptions ?? 0,
            n: formatNumber(lang, heats.data?.exceptions ?? 0, 0),
          })}
        </Typography>
        <ExceptionsFile rangeId={rangeId} canEdit={canEdit} />
      </CardContent>
    </Card>
  );
}

function HeatPicker({
  part,
  value,
  disabled,
  onChange,
}: {
  part: ProductPart;
  value: string;
  disabled: boolean;
  onChange: (v: string) => void;
}) {
  const { t } = useTranslation();
  const options = useHeatOptions(part.materialId);
  const items = options.data?.items ?? [];
  const pressure = (PRESSURE_PARTS as readonly Part[]).includes(part.part);
  return (
    <TextField
      select
      id={`range-heat-${part.part}`}
      label={t(`materials.parts.${part.part}`)}
      helperText={`${part.material}${pressure ? ` · ${t('materials.rangeHeats.pressurePart')}` : ''}`}
      value={items.some((h) => h.id === value) ? value : ''}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value)}
    >
      <MenuItem value="">{t('materials.rangeHeats.noHeat')}</MenuItem>
      {items.map((h) => (
        <MenuItem key={h.id} value={h.id}>
          {h.status === 'hold' ? t('materials.rangeHeats.heatOnHold', { number: h.number }) : h.number}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** The exceptions' CSV out and back in; a refused file lists each refused row with its reason. */
function ExceptionsFile({ rangeId, canEdit }: { rangeId: string; canEdit: boolean }) {
  const { t } = useTranslation();
  const send = useImportUnitHeats(rangeId);
  const [refused, setRefused] = useState<{ message: string; rows: string[] } | null>(null);
  const take = async (file: File | undefined) => {
    if (!file) return;
    setRefused(null);
    try {
      const done = await send.mutateAsync(file);
      notifySuccess('materials.rangeHeats.imported', { stored: done.stored, removed: done.removed });
    } catch (err) {
      const rows =
        err instanceof ApiError
          ? err.fields.map((f) => {
              const row = /^rows\.(\d+)/.exec(f.field)?.[1];
              const reason = t(f.key, { ...f.params, defaultValue: f.key });
              return row ? t('materials.rangeHeats.rowRefused', { row, reason }) : reason;
            })
          : [];
      setRefused({ message: errorMessage(t, err), rows });
    }
  };
  return (
    <>
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
        <Button size="small" href={unitHeatsHref(rangeId)} download startIcon={<FileDownloadOutlined />} color="inherit">
          {t('materials.rangeHeats.download')}
        </Button>
        {canEdit && (
          <Button size="small" component="label" startIcon={<UploadOutlined />} color="inherit" disabled={send.isPending}>
            {t('materials.rangeHeats.upload')}
            <input
              hidden
              type="file"
              accept=".csv,text/csv"
              aria-label={t('materials.rangeHeats.upload')}
              onChange={(e) => {
                void take(e.target.files?.[0]);
                e.target.value = '';
              }}
            />
          </Button>
        )}
      </Stack>
      {refused && (
        <Alert severity="error" sx={{ mt: 2 }} data-testid="unit-heats-refused">
          {refused.message}
          {refused.rows.length > 0 && (
            <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
              {refused.rows.slice(0, 20).map((r, i) => (
                <li key={i}>{r}</li>
              ))}
            </Box>
          )}
        </Alert>
      )}
    </>
  );
}
