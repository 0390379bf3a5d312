/**
 * CSV import of a catalogue list: choose a file, the server checks it (a dry run) and lists every row's
 * errors in the user's language, or says how many rows are valid; only then may the user store it.
 * Nothing is stored unless the whole file is valid (the server guarantees it; the button follows it).
 */
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ImportResult } from '../../../../shared/contract/record-history';
import { errorMessage } from '../../../lib/errors';
import { notifySuccess } from '../../../lib/toast';
import { formatNumber } from './format';
import { uploadCsv } from './upload';

type Phase =
  | { kind: 'idle' }
  | { kind: 'checking' | 'storing'; fraction: number | null }
  | { kind: 'checked'; result: ImportResult }
  | { kind: 'failed'; message: string };

export interface ImportDialogProps {
  open: boolean;
  onClose: () => void;
  /** API path of the list, e.g. `/products` */
  path: string;
  ns: 'products' | 'serials';
  /** i18n key of a column's label */
  fieldLabel: (field: string) => string;
  /** query keys to refresh after a stored import */
  invalidate: readonly (readonly unknown[])[];
}

export function ImportDialog({ open, onClose, path, ns, fieldLabel, invalidate }: ImportDialogProps) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const abort = useRef<AbortController | null>(null);
  const busy = phase.kind === 'checking' || phase.kind === 'storing';

  useEffect(() => {
    if (!open) {
      abort.current?.abort();
      setFile(null);
      setPhase({ kind: 'idle' });
    }
  }, [open]);

  const run = async (chosen: File, dryRun: boolean) => {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setPhase({ kind: dryRun ? 'checking' : 'storing', fraction: 0 });
    try {
      const result = await uploadCsv(path, chosen, {
        dryRun,
        signal: controller.signal,
        onProgress: ({ fraction }) => setPhase({ kind: dryRun ? 'checking' : 'storing', fraction }),
      });
      if (controller.signal.aborted) return;
      if (!dryRun && result.valid && result.stored > 0) {
        notifySuccess(`${ns}.import.stored`, { count: result.stored });
        await Promise.all(invalidate.map((queryKey) => qc.invalidateQueries({ queryKey })));
        onClose();
        return;
      }
      setPhase({ kind: 'checked', result });
    } catch (err) {
      if (controller.signal.aborted) return;
      setPhase({ kind: 'failed', message: errorMessage(t, err) });
    }
  };

  const choose = (chosen: File | null) => {
    setFile(chosen);
    if (chosen) void run(chosen, true);
    else setPhase({ kind: 'idle' });
  };

  const result = phase.kind === 'checked' ? phase.result : null;
  const canStore = !!file && !!result && result.valid && result.rows > 0;

  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} fullWidth maxWidth="md" aria-labelledby="import-title">
      <DialogTitle id="import-title">{t(`${ns}.import.title`)}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('products.import.intro')}
        </Typography>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
          <Button component="label" variant="outlined" startIcon={<UploadFileOutlined />} disabled={busy}>
            {t('products.import.choose')}
            <input
              type="file"
              accept=".csv,text/csv"
              hidden
              data-testid="import-file"
              onChange={(e) => {
                choose(e.target.files?.[0] ?? null);
                e.target.value = '';
              }}
            />
          </Button>
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }} data-testid="import-file-name">
            {file ? `${file.name} (${formatNumber(i18n.language, Math.max(1, Math.round(file.size / 1024)), 0)} KB)` : t('products.import.noneChosen')}
          </Typography>
        </Box>

        {busy && (
          <Box sx={{ mt: 3 }} role="status" aria-live="polite">
            <Typography variant="body2" sx={{ mb: 1 }}>
              {phase.fraction === null
                ? t(phase.kind === 'checking' ? 'products.import.checking' : 'products.import.storing')
                : t('products.import.uploading', { percent: Math.round(phase.fraction * 100) })}
            </Typography>
            <LinearProgress
              variant={phase.fraction === null ? 'indeterminate' : 'determinate'}
              value={phase.fraction === null ? undefined : phase.fraction * 100}
              aria-label={t('products.import.progress')}
            />
          </Box>
        )}

        {phase.kind === 'failed' && (
          <Alert severity="error" sx={{ mt: 3 }}>
            {phase.message}
          </Alert>
        )}

        {result && result.valid && (
          <Alert severity="success" sx={{ mt: 3 }} data-testid="import-valid">
            {t(`${ns}.import.valid`, { count: result.rows })}
          </Alert>
        )}

        {result && !result.valid && (
          <Box sx={{ mt: 3 }}>
            <Alert severity="error" data-testid="import-invalid">
              {t('products.import.invalid', { count: result.errors.length, rows: result.rows })}
              {result.errorsTruncated && ` ${t('products.import.truncated')}`}
            </Alert>
            <TableContainer sx={{ mt: 2, maxHeight: 320 }}>
              <Table size="small" stickyHeader aria-label={t('products.import.errorsTable')}>
                <TableHead>
                  <TableRow>
                    <TableCell sx={{ fontWeight: 600 }}>{t('products.import.row')}</TableCell>
                    <TableCell sx={{ fontWeight: 600 }}>{t('products.import.field')}</TableCell>
                    <TableCell sx={{ fontWeight: 600 }}>{t('products.import.message')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {result.errors.map((e, i) => (
                    <TableRow key={`${e.row}-${e.field}-${i}`}>
                      <TableCell>{e.row}</TableCell>
                      <TableCell>{e.field ? t(fieldLabel(e.field), { defaultValue: e.field }) : '—'}</TableCell>
                      <TableCell>{e.message}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy} color="inherit">
          {t('app.cancel')}
        </Button>
        <Button variant="contained" disabled={!canStore || busy} onClick={() => file && void run(file, false)} data-testid="import-confirm">
          {result?.valid ? t('products.import.confirm', { count: result.rows }) : t('products.import.confirmNone')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
