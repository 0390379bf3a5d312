/**
 * "Scan or type serials": one a line, `serial,tag`, or a range `A…B`; every unit goes to the chosen line of
 * the order. Lines that do not read as serials are named before anything is sent; the server's row errors
 * (a serial of another product, in another open delivery, more than ordered) are listed after.
 */
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
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeliveryUnitInput, PurchaseOrder } from '../../../../shared/contract/orders';
import { uploadCsv } from '../../../components/csv';
import { ApiError } from '../../../lib/api';
import { errorMessage } from '../../../lib/errors';
import { notifySuccess } from '../../../lib/toast';
import { useAddDeliveryUnits, useRefreshDelivery } from '../api';
import { parseSerialEntry } from './serial-entry';
import { productName } from '../../../../shared/product-name';

interface RowError {
  at: string;
  message: string;
}

function rowErrors(t: (k: string, o?: Record<string, unknown>) => string, err: unknown, units: DeliveryUnitInput[]): RowError[] {
  if (!(err instanceof ApiError) || err.fields.length === 0) return [];
  return err.fields.map((f) => {
    const message = f.message || t(f.key);
    const unit = /^units\.(\d+)\./.exec(f.field);
    if (unit) return { at: units[Number(unit[1])]?.serial ?? f.field, message };
    // A file's rows are numbered as a spreadsheet shows them (the header is row 1).
    const row = /^rows\.(\d+)\./.exec(f.field);
    return { at: row ? t('orderScreens.entry.row', { n: Number(row[1]) }) : f.field, message };
  });
}

export function SerialEntryCard({ deliveryId, order }: { deliveryId: string; order: PurchaseOrder | undefined }) {
  const { t, i18n } = useTranslation();
  const [text, setText] = useState('');
  const [line, setLine] = useState<number | ''>('');
  const [bad, setBad] = useState<number[]>([]);
  const [errors, setErrors] = useState<RowError[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const add = useAddDeliveryUnits(deliveryId);
  const refresh = useRefreshDelivery();
  const file = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const items = order?.items ?? [];
  const chosen = line === '' ? (items.length === 1 ? items[0]!.line : '') : line;

  const reset = () => {
    setBad([]);
    setErrors([]);
    setFailure(null);
  };

  const submit = async () => {
    reset();
    if (chosen === '') {
      setFailure(t('orderScreens.entry.pickLine'));
      return;
    }
    const parsed = parseSerialEntry(text, chosen);
    if (parsed.bad.length > 0) {
      setBad(parsed.bad);
      return;
    }
    if (parsed.units.length === 0) {
      setFailure(t('orderScreens.entry.nothing'));
      return;
    }
    try {
      await add.mutateAsync({ units: parsed.units });
      notifySuccess('orderScreens.entry.added', { count: parsed.units.length });
      setText('');
    } catch (err) {
      const rows = rowErrors(t, err, parsed.units);
      if (rows.length > 0) setErrors(rows);
      else setFailure(errorMessage(t, err));
    }
  };

  const upload = async (f: File) => {
    reset();
    setUploading(true);
    try {
      await uploadCsv(`/deliveries/${encodeURIComponent(deliveryId)}/serials.csv`, f, { dryRun: false, onProgress: () => {} });
      notifySuccess('orderScreens.entry.uploaded');
      await refresh();
    } catch (err) {
      const rows = rowErrors(t, err, []);
      if (rows.length > 0) setErrors(rows);
      else setFailure(errorMessage(t, err));
    } finally {
      setUploading(false);
      if (file.current) file.current.value = '';
    }
  };

  return (
    <Card>
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 0.5 }}>
          {t('orderScreens.entry.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('orderScreens.entry.hint')}
        </Typography>
        <Stack spacing={2}>
          <TextField
            select
            id="entry-line"
            label={t('orderScreens.entry.line')}
            value={chosen}
            onChange={(e) => setLine(Number(e.target.value))}
            size="small"
            sx={{ maxWidth: 480 }}
          >
            {items.map((it) => (
              <MenuItem key={it.line} value={it.line}>
                {t('orderScreens.entry.lineOption', {
                  line: it.line,
                  product: productName({ name: it.productName, nameZh: it.productNameZh }, i18n.language),
                  shipped: it.shipped,
                  quantity: it.quantity,
                })}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            id="entry-serials"
            label={t('orderScreens.entry.serials')}
            value={text}
            onChange={(e) => setText(e.target.value)}
            multiline
            minRows={4}
            maxRows={14}
            placeholder={'VB-000101\nVB-000102,FV-2301\nVB-000110…VB-000120'}
            slotProps={{ htmlInput: { spellCheck: false, autoCapitalize: 'characters', style: { fontFamily: 'ui-monospace, monospace' } } }}
          />
          {bad.length > 0 && (
            <Alert severity="error" data-testid="entry-bad-lines">
              {t('orderScreens.entry.badLines', { lines: bad.join(', '), count: bad.length })}
            </Alert>
          )}
          {errors.length > 0 && (
            <Alert severity="error" data-testid="entry-row-errors">
              <Typography variant="body2" sx={{ mb: 0.5 }}>
                {t('orderScreens.entry.refused', { count: errors.length })}
              </Typography>
              <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
                {errors.slice(0, 50).map((e, i) => (
                  <li key={i}>
                    <strong>{e.at}</strong>: {e.message}
                  </li>
                ))}
              </Box>
            </Alert>
          )}
          {failure && (
            <Alert severity="error" data-testid="entry-failure">
              {failure}
            </Alert>
          )}
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            <Button variant="contained" onClick={() => void submit()} disabled={add.isPending || !text.trim()}>
              {t('orderScreens.entry.add')}
            </Button>
            <Button
              variant="outlined"
              color="inherit"
              startIcon={<UploadOutlined />}
              onClick={() => file.current?.click()}
              disabled={uploading}
            >
              {t('orderScreens.entry.upload')}
            </Button>
            <input
              ref={file}
              type="file"
              accept=".csv,text/csv"
              hidden
              aria-label={t('orderScreens.entry.upload')}
              onChange={(e) => {
                const f = e.target.files?.[0];
                if (f) void upload(f);
              }}
            />
          </Box>
          <Typography variant="caption" color="text.secondary">
            {t('orderScreens.entry.csvHint')}
          </Typography>
        </Stack>
      </CardContent>
    </Card>
  );
}
