/**
 * The signing certificate: subject, issuer, validity and fingerprint (never the key). An admin uploads the
 * company's own PKCS#12 with its password, or generates a new self-signed one. A self-signed one comes with
 * what readers show for it ("issuer unknown") and how a certificate from a trusted authority changes that.
 */
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Settings } from '../../../../shared/contract/settings';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { formatDateTime } from '../../../components/format';
import { ApiError } from '../../../lib/api';
import { errorMessage } from '../../../lib/errors';
import { notifyError, notifySuccess } from '../../../lib/toast';
import { useGenerateCertificate, useUploadCertificate } from '../api';

/** One term–description pair; its div is a direct child of the dl, as HTML allows. */
function Fact({ label, value, mono = false, wide = false }: { label: string; value: string; mono?: boolean; wide?: boolean }) {
  return (
    <Box sx={wide ? { gridColumn: { md: '1 / -1' } } : undefined}>
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography
        component="dd"
        sx={{ m: 0, overflowWrap: 'anywhere', fontFamily: mono ? 'monospace' : undefined, fontSize: mono ? '0.85rem' : undefined }}
      >
        {value}
      </Typography>
    </Box>
  );
}

/** What a reader's PDF software makes of a self-signed signature, and how a trusted certificate changes it. */
function TrustNote() {
  const { t } = useTranslation();
  return (
    <Alert severity="warning" sx={{ mt: 2 }} data-testid="certificate-trust">
      <AlertTitle component="h3" sx={{ fontSize: '1rem' }}>
        {t('settingsScreen.certificate.trust.title')}
      </AlertTitle>
      {(['selfSigned', 'install', 'after'] as const).map((k) => (
        <Typography key={k} variant="body2" sx={{ mt: k === 'selfSigned' ? 0 : 1 }}>
          {t(`settingsScreen.certificate.trust.${k}`)}
        </Typography>
      ))}
    </Alert>
  );
}

export function CertificateCard({ settings, canEdit }: { settings: Settings; canEdit: boolean }) {
  const { t, i18n } = useTranslation();
  const upload = useUploadCertificate();
  const generate = useGenerateCertificate();
  const [file, setFile] = useState<File | null>(null);
  const [password, setPassword] = useState('');
  const [fieldError, setFieldError] = useState<{ field: 'file' | 'password'; text: string } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const cert = settings.certificate;
  const expired = cert ? new Date(cert.notAfter).getTime() < Date.now() : false;

  async function onUpload(e: FormEvent) {
    e.preventDefault();
    setFieldError(null);
    if (!file) return setFieldError({ field: 'file', text: t('settings.certificateMissing') });
    try {
      const saved = await upload.mutateAsync({ file, password });
      setFile(null);
      setPassword('');
      notifySuccess(saved.messageKey);
    } catch (err) {
      const field = err instanceof ApiError ? err.fields[0] : undefined;
      if (field && (field.field === 'file' || field.field === 'password'))
        setFieldError({
          field: field.field,
          text: t(field.key, { ...field.params, defaultValue: err instanceof Error ? err.message : '' }),
        });
      else if (err instanceof ApiError && err.httpStatus === 400) setFieldError({ field: 'file', text: errorMessage(t, err) });
      else notifyError(err);
    }
  }

  async function onGenerate() {
    setConfirming(false);
    try {
      notifySuccess((await generate.mutateAsync()).messageKey);
    } catch (err) {
      notifyError(err);
    }
  }

  return (
    <Card>
      <CardHeader
        title={t('settingsScreen.certificate.title')}
        subheader={t('settingsScreen.certificate.subtitle')}
        slotProps={{ title: { component: 'h2', variant: 'h6' } }}
      />
      <CardContent sx={{ pt: 0 }}>
        {cert ? (
          <>
            <Stack direction="row" spacing={1} sx={{ mb: 2, flexWrap: 'wrap', rowGap: 1 }}>
              <Chip size="small" label={t(`settingsScreen.certificate.source.${cert.source}`)} />
              {cert.selfSigned && <Chip size="small" variant="outlined" label={t('settingsScreen.certificate.selfSigned')} />}
              {expired && <Chip size="small" color="error" label={t('settingsScreen.certificate.expired')} />}
            </Stack>
            <Box
              component="dl"
              sx={{ m: 0, display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}
              data-testid="certificate-facts"
            >
              <Fact label={t('settingsScreen.certificate.subject')} value={cert.subject} />
              <Fact label={t('settingsScreen.certificate.issuer')} value={cert.issuer} />
              <Fact label={t('settingsScreen.certificate.notBefore')} value={formatDateTime(i18n.language, cert.notBefore)} />
              <Fact label={t('settingsScreen.certificate.notAfter')} value={formatDateTime(i18n.language, cert.notAfter)} />
              <Fact label={t('settingsScreen.certificate.fingerprint')} value={cert.fingerprintSha256} mono wide />
            </Box>
            {cert.selfSigned && <TrustNote />}
          </>
        ) : (
          <Alert severity="info">{t('settingsScreen.certificate.none')}</Alert>
        )}
        {canEdit && (
          <Box
            component="form"
            noValidate
            onSubmit={(e) => void onUpload(e)}
            aria-label={t('settingsScreen.certificate.uploadTitle')}
            sx={{ mt: 3 }}
          >
            <Typography variant="subtitle2" component="h3" sx={{ mb: 1.5 }}>
              {t('settingsScreen.certificate.uploadTitle')}
            </Typography>
            <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} sx={{ alignItems: { md: 'flex-start' } }}>
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <Button
                  variant="outlined"
                  component="label"
                  fullWidth
                  sx={{ justifyContent: 'flex-start', height: 56, textTransform: 'none' }}
                >
                  <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                    {file ? file.name : t('settingsScreen.certificate.choose')}
                  </Box>
                  <input
                    hidden
                    type="file"
                    accept=".p12,.pfx,application/x-pkcs12"
                    data-testid="certificate-input"
                    onChange={(e) => {
                      setFile(e.target.files?.[0] ?? null);
                      setFieldError(null);
                    }}
                  />
                </Button>
                {fieldError?.field === 'file' && (
                  <Typography variant="caption" color="error" role="alert" sx={{ display: 'block', mt: 0.5, mx: 1.75 }}>
                    {fieldError.text}
                  </Typography>
                )}
              </Box>
              <TextField
                id="certificate-password"
                type="password"
                label={t('settingsScreen.certificate.password')}
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                autoComplete="off"
                error={fieldError?.field === 'password'}
                helperText={fieldError?.field === 'password' ? fieldError.text : undefined}
                sx={{ flex: 1 }}
              />
              <Button type="submit" variant="contained" disabled={upload.isPending} sx={{ height: 56, whiteSpace: 'nowrap' }}>
                {t('settingsScreen.certificate.upload')}
              </Button>
            </Stack>
            <Button color="error" sx={{ mt: 2 }} onClick={() => setConfirming(true)} disabled={generate.isPending}>
              {t('settingsScreen.certificate.generate')}
            </Button>
          </Box>
        )}
      </CardContent>
      <ConfirmDialog
        open={confirming}
        title={t('settingsScreen.certificate.generateTitle')}
        text={t('settingsScreen.certificate.generateConfirm')}
        busy={generate.isPending}
        confirmLabel={t('settingsScreen.certificate.generate')}
        onConfirm={() => void onGenerate()}
        onClose={() => setConfirming(false)}
      />
    </Card>
  );
}
