/**
 * CSV import of any list: choose a file, the server checks it (a dry run, `POST <importPath>?dryRun=true`)
 * and lists every row's errors in the user's language (row, column, reason), or says how many rows are
 * valid; only then may the user store it (`?dryRun=false`). A progress bar follows the upload. Nothing is
 * stored unless the whole file is valid (the server guarantees it; the button follows it). The server
 * answers an ImportResult (src/shared/contract/record-history.ts).
 *
 * Usually opened by CsvActions. Texts that name the feature are passed as i18n keys (`texts`); the rest
 * are `table.import.*`. `extraFiles` adds optional files sent along under their own form field (e.g. the
 * samples of machine data); choosing one checks again.
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
import type { ImportResult } from '../../../shared/contract/record-history';
import { errorMessage } from '../../lib/errors';
import { notifySuccess } from '../../lib/toast';
import { formatNumber } from '../format';
import { uploadCsv } from './upload';

type Phase =
  | { kind: 'idle' }
  | { kind: 'checking' | 'storing'; fraction: number | null }
  | { kind: 'checked'; result: ImportResult }
  | { kind: 'failed'; message: string };

/** The i18n keys that name the feature; `valid` and `stored` get `{{count}}`. */
export interface ImportTexts {
  title: string;
  valid: string;
  stored: string;
}

export interface ExtraFile {
  /** the multipart form field */
  field: string;
  /** i18n key of its button */
  label: string;
  accept?: string;
}

export interface ImportDialogProps {
  open: boolean;
  onClose: () => void;
  /** the import endpoint under /api/v1, e.g. `/products/import` */
  importPath: string;
  texts: ImportTexts;
  /** i18n key of a column's label (the server names the column of each error) */
  fieldLabel: (field: string) => string;
  /** query keys to refresh after a stored import */
  invalidate: readonly (readonly unknown[])[];
  extraFiles?: readonly ExtraFile[];
}

function fileLabel(file: File, language: string): string {
  return `${file.name} (${formatNumber(language, Math.max(1, Math.round(file.size / 1024)), 0)} KB)`;
}

// The state of a closed dialog, one value each, so that resetting a dialog that is already closed (as it is
// when the page first draws it) changes nothing and draws nothing again.
const NO_EXTRAS: Record<string, File | null> = {};
const IDLE: Phase = { kind: 'idle' };

export function ImportDialog({ open, onClose, importPath, texts, fieldLabel, invalidate, extraFiles = [] }: ImportDialogProps) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [extras, setExtras] = useState(NO_EXTRAS);
  const [phase, setPhase] = useState(IDLE);
  const abort = useRef<AbortController | null>(null);
  const busy = phase.kind === 'checking' || phase.kind === 'storing';

  useEffect(() => {
    if (!open) {
      abort.current?.abort();
      setFile(null);
      setExtras(NO_EXTRAS);
      setPhase(IDLE);
    }
  }, [open]);

  const run = async (chosen: File, dryRun: boolean, withExtras: Record<string, File | null> = extras) => {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setPhase({ kind: dryRun ? 'checking' : 'storing', fraction: 0 });
    try {
      const result = await uploadCsv(importPath, chosen, {
        dryRun,
        extra: withExtras,
        signal: controller.signal,
        onProgress: ({ fraction }) => setPhase({ kind: dryRun ? 'checking' : 'storing', fraction }),
      });
      if (controller.signal.aborted) return;
      if (!dryRun && result.valid && result.stored > 0) {
        notifySuccess(texts.stored, { count: result.stored });
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

  const chooseExtra = (field: string, chosen: File | null) => {
    const next = { ...extras, [field]: chosen };
    setExtras(next);
    if (file) void run(file, true, next);
  };

  const result = phase.kind === 'checked' ? phase.result : null;
  const canStore = !!file && !!result && result.valid && result.rows > 0;

  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} fullWidth maxWidth="md" aria-labelledby="import-title">
      <DialogTitle id="import-title">{t(texts.title)}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('table.import.intro')}
        </Typography>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
          <Button component="label" variant="outlined" startIcon={<UploadFileOutlined />} disabled={busy}>
            {t('table.import.choose')}
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
            {file ? fileLabel(file, i18n.language) : t('table.import.noneChosen')}
          </Typography>
        </Box>
        {extraFiles.map((x) => (
          <Box key={x.field} sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap', mt: 1.5 }}>
            <Button component="label" variant="outlined" color="inherit" size="small" startIcon={<UploadFileOutlined />} disabled={busy}>
              {t(x.label)}
              <input
                type="file"
                accept={x.accept ?? '.csv,text/csv'}
                hidden
                data-testid={`import-file-${x.field}`}
                onChange={(e) => {
                  chooseExtra(x.field, e.target.files?.[0] ?? null);
                  e.target.value = '';
                }}
              />
            </Button>
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {extras[x.field] ? fileLabel(extras[x.field] as File, i18n.language) : t('table.import.optional')}
            </Typography>
          </Box>
        ))}

        {busy && (
          <Box sx={{ mt: 3 }} role="status" aria-live="polite">
            <Typography variant="body2" sx={{ mb: 1 }}>
              {phase.fraction === null
                ? t(phase.kind === 'checking' ? 'table.import.checking' : 'table.import.storing')
                : t('table.import.uploading', { percent: Math.round(phase.fraction * 100) })}
            </Typography>
            <LinearProgress
              variant={phase.fraction === null ? 'indeterminate' : 'determinate'}
              value={phase.fraction === null ? undefined : phase.fraction * 100}
              aria-label={t('table.import.progress')}
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
            {t(texts.valid, { count: result.rows })}
          </Alert>
        )}

        {result && !result.valid && (
          <Box sx={{ mt: 3 }}>
            <Alert severity="error" data-testid="import-invalid">
              {t('table.import.invalid', { count: result.errors.length, rows: result.rows })}
              {result.errorsTruncated && ` ${t('table.import.truncated')}`}
            </Alert>
            <TableContainer sx={{ mt: 2, maxHeight: 320 }}>
              <Table size="small" stickyHeader aria-label={t('table.import.errorsTable')}>
                <TableHead>
                  <TableRow>
                    <TableCell sx={{ fontWeight: 600 }}>{t('table.import.row')}</TableCell>
                    <TableCell sx={{ fontWeight: 600 }}>{t('table.import.field')}</TableCell>
                    <TableCell sx={{ fontWeight: 600 }}>{t('table.import.message')}</TableCell>
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
          {result?.valid ? t('table.import.confirm', { count: result.rows }) : t('table.import.confirmNone')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
