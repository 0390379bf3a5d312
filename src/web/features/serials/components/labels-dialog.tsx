/**
 * "Print labels" of a serial range: the layout (A4 sheet or one label a page) and the part of the range
 * (From / To, the whole range when empty). The shared `selectLabels` checks the part as the server will and
 * counts the labels; the PDF is fetched and saved as a file, and a refusal is shown in the dialog.
 */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { canonicalSerial } from '../../../../shared/contract/public';
import { LABEL_LAYOUTS, MAX_LABELS_PER_FILE, selectLabels, type LabelLayout } from '../../../../shared/contract/labels';
import type { SerialRange } from '../../../../shared/contract/serials';
import { formatNumber } from '../../../components/format';
import { API_BASE } from '../../../lib/api';
import { useSettings } from '../../settings/api';

/** The message of a refused request, in the user's language when the server sent a key. */
async function refusal(res: Response, t: (key: string, params?: Record<string, unknown>) => string): Promise<string> {
  try {
    const body = (await res.json()) as { error?: { key?: string; message?: string; params?: Record<string, unknown> } };
    if (body.error?.key) return t(body.error.key, body.error.params ?? {});
    return body.error?.message ?? res.statusText;
  } catch {
    return t('errors.internal');
  }
}

function save(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export function LabelsDialog({ range, onClose }: { range: SerialRange | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const [layout, setLayout] = useState<LabelLayout>('sheet');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const [shownFor, setShownFor] = useState<string | null>(null);
  const [testConfirmed, setTestConfirmed] = useState(false);
  // While links point at this machine only, labels print marked TEST, once confirmed.
  const address = useSettings().data?.publicAddress;
  const local = address?.local ?? false;
  // A new range opens with an empty form.
  if (range && range.id !== shownFor) {
    setShownFor(range.id);
    setFrom('');
    setTo('');
    setFailed(null);
  }
  if (!range) return null;
  const fromSerial = from.trim() === '' ? undefined : canonicalSerial(from);
  const toSerial = to.trim() === '' ? undefined : canonicalSerial(to);
  const chosen = selectLabels(range, fromSerial, toSerial);
  const fieldError = (field: 'from' | 'to') => (!chosen.ok && chosen.field === field ? t(chosen.key, chosen.params) : undefined);

  const download = async () => {
    if (!chosen.ok) return;
    setBusy(true);
    setFailed(null);
    const qs = new URLSearchParams({ layout });
    if (fromSerial) qs.set('from', fromSerial);
    if (toSerial) qs.set('to', toSerial);
    try {
      const res = await fetch(`${API_BASE}/serial-ranges/${range.id}/labels.pdf?${qs}`, {
        credentials: 'same-origin',
        headers: { 'accept-language': i18n.language },
      });
      if (!res.ok) {
        setFailed(await refusal(res, t));
        return;
      }
      const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'labels.pdf';
      save(await res.blob(), name);
      onClose();
    } catch {
      setFailed(t('errors.connectionFailed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby="labels-title" fullWidth maxWidth="sm">
      <DialogTitle id="labels-title">{t('labels.title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <DialogContentText>
            {t('labels.intro')} <strong>{range.productName}</strong>: {range.startSerial} – {range.endSerial}
          </DialogContentText>
          <div>
            <FormLabel id="labels-layout">{t('labels.layout')}</FormLabel>
            <RadioGroup aria-labelledby="labels-layout" value={layout} onChange={(e) => setLayout(e.target.value as LabelLayout)}>
              {LABEL_LAYOUTS.map((l) => (
                <FormControlLabel key={l} value={l} control={<Radio size="small" />} label={t(`labels.layouts.${l}`)} />
              ))}
            </RadioGroup>
          </div>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              label={t('labels.from')}
              value={from}
              onChange={(e) => setFrom(e.target.value)}
              placeholder={range.startSerial}
              error={!!fieldError('from')}
              helperText={fieldError('from')}
              size="small"
              fullWidth
              slotProps={{ htmlInput: { spellCheck: false, autoCapitalize: 'characters' } }}
            />
            <TextField
              label={t('labels.to')}
              value={to}
              onChange={(e) => setTo(e.target.value)}
              placeholder={range.endSerial}
              error={!!fieldError('to')}
              helperText={fieldError('to')}
              size="small"
              fullWidth
              slotProps={{ htmlInput: { spellCheck: false, autoCapitalize: 'characters' } }}
            />
          </Stack>
          <div>
            <DialogContentText role="status" data-testid="labels-count" sx={{ fontWeight: 600, color: 'text.primary' }}>
              {chosen.ok ? t('labels.count', { n: formatNumber(i18n.language, chosen.count, 0) }) : '\u00a0'}
            </DialogContentText>
            <DialogContentText variant="body2">
              {t('labels.limit', { max: formatNumber(i18n.language, MAX_LABELS_PER_FILE, 0) })}
            </DialogContentText>
          </div>
          {local && (
            <Alert severity="warning" data-testid="labels-local-address">
              {t('labels.localAddress', { url: address?.url ?? '' })}
              <FormControlLabel
                sx={{ display: 'flex', mt: 1 }}
                control={<Checkbox size="small" checked={testConfirmed} onChange={(e) => setTestConfirmed(e.target.checked)} />}
                label={t('labels.printTest')}
              />
            </Alert>
          )}
          {failed && <Alert severity="error">{failed}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('labels.cancel')}</Button>
        <Button variant="contained" onClick={() => void download()} disabled={!chosen.ok || busy || (local && !testConfirmed)}>
          {t('labels.download')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
