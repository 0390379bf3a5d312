/**
 * "Verify a report": the short code printed on a report, or the PDF file itself dropped (or chosen) here.
 * The file never leaves the browser: its SHA-256 is computed with Web Crypto and only the hash is sent.
 */
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState, type DragEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/errors';
import { isNotFound, verifyByCode, verifyByHash } from '../api';
import { sha256Hex } from '../lib/sha256';
import type { ReportVerification } from '../../../../shared/contract/reports';
import { TextInput } from './text-input';
import { VerificationCard, type VerificationState } from './verification-card';

/** Any 404 (unknown, malformed) reads "not known"; other failures are shown as what they are. */
export async function verify(call: () => Promise<ReportVerification>, t: Parameters<typeof errorMessage>[0]): Promise<VerificationState> {
  try {
    return { kind: 'known', report: await call() };
  } catch (err) {
    return isNotFound(err) ? { kind: 'unknown' } : { kind: 'error', message: errorMessage(t, err) };
  }
}

export function VerifyPanel() {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState(false);
  const [state, setState] = useState<VerificationState | null>(null);
  const [busy, setBusy] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [fileName, setFileName] = useState<string | null>(null);

  async function run(call: () => Promise<ReportVerification>) {
    setBusy(true);
    setState(await verify(call, t));
    setBusy(false);
  }

  function byCode(e: FormEvent) {
    e.preventDefault();
    if (!code.trim()) return setCodeError(true);
    setCodeError(false);
    setFileName(null);
    void run(() => verifyByCode(code));
  }

  function byFile(file: File | undefined) {
    if (!file) return;
    setFileName(file.name);
    void run(async () => verifyByHash(await sha256Hex(await file.arrayBuffer())));
  }

  function onDrop(e: DragEvent) {
    e.preventDefault();
    setDragging(false);
    byFile(e.dataTransfer.files[0]);
  }

  return (
    <Stack spacing={2} component="section" aria-labelledby="verify-heading">
      <Box>
        <Typography id="verify-heading" variant="h6" component="h2">
          {t('search.verify.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('search.verify.intro')}
        </Typography>
      </Box>
      <Stack
        component="form"
        noValidate
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1.5}
        onSubmit={byCode}
        aria-label={t('search.verify.byCode')}
      >
        <TextInput
          id="report-code"
          label={t('search.verify.codeLabel')}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          error={codeError}
          helperText={codeError ? t('validation.required') : t('search.verify.codeHint')}
          autoComplete="off"
          inputProps={{ spellCheck: false, autoCapitalize: 'characters' }}
          sx={{ flex: 1 }}
        />
        <Button type="submit" variant="outlined" disabled={busy} sx={{ alignSelf: { sm: 'flex-start' }, height: { sm: 56 } }}>
          {t('search.verify.check')}
        </Button>
      </Stack>
      <Box
        component="label"
        htmlFor="report-file"
        onDragOver={(e: DragEvent) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="drop-zone"
        sx={{
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'center',
          gap: 0.5,
          p: 2.5,
          textAlign: 'center',
          border: 2,
          borderStyle: 'dashed',
          borderColor: dragging ? 'primary.main' : 'divider',
          borderRadius: 1,
          position: 'relative',
          cursor: 'pointer',
          bgcolor: dragging ? 'action.hover' : 'transparent',
          '&:focus-within': { outline: 2, outlineStyle: 'solid', outlineColor: 'primary.main' },
        }}
      >
        <UploadFileOutlined color="action" aria-hidden />
        <Typography>{t('search.verify.drop')}</Typography>
        <Typography variant="body2" color="text.secondary">
          {fileName ?? t('search.verify.dropHint')}
        </Typography>
        <input
          id="report-file"
          type="file"
          accept="application/pdf,.pdf"
          onChange={(e) => byFile(e.target.files?.[0])}
          style={{ position: 'absolute', width: 1, height: 1, opacity: 0, overflow: 'hidden' }}
        />
      </Box>
      {state && <VerificationCard state={state} />}
    </Stack>
  );
}
