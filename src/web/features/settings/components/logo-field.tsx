/**
 * The company logo: the current one, or the chosen file's preview before it is uploaded (PNG or JPEG up
 * to 1 MB; the server checks the content). Upload and remove save at once, apart from the text form.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LOGO_MAX_BYTES, LOGO_TYPES, type Settings } from '../../../../shared/contract/settings';
import { notifyError, notifySuccess } from '../../../lib/toast';
import { useRemoveLogo, useUploadLogo } from '../api';

export function LogoField({ settings, canEdit }: { settings: Settings; canEdit: boolean }) {
  const { t } = useTranslation();
  const uploadLogo = useUploadLogo();
  const removeLogo = useRemoveLogo();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!file) return setPreview(null);
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  function choose(f: File | undefined) {
    setError(null);
    if (!f) return;
    if (!(LOGO_TYPES as readonly string[]).includes(f.type)) return setError(t('settings.logoType'));
    if (f.size > LOGO_MAX_BYTES) return setError(t('settings.logoTooLarge'));
    setFile(f);
  }

  async function save() {
    if (!file) return;
    try {
      const saved = await uploadLogo.mutateAsync(file);
      setFile(null);
      notifySuccess(saved.messageKey);
    } catch (err) {
      notifyError(err);
    }
  }

  async function remove() {
    try {
      notifySuccess((await removeLogo.mutateAsync()).messageKey);
    } catch (err) {
      notifyError(err);
    }
  }

  const current = settings.logo ? `/api/v1/settings/logo?v=${settings.logo.sha256.slice(0, 16)}` : null;
  const shown = preview ?? current;
  return (
    <Box>
      <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }} id="logo-heading">
        {t('settingsScreen.logo.title')}
      </Typography>
      <Box
        sx={{
          height: 96,
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          p: 1,
          bgcolor: '#fff',
        }}
        data-testid="logo-preview"
      >
        {shown ? (
          <Box
            component="img"
            src={shown}
            alt={t(preview ? 'settingsScreen.logo.previewAlt' : 'settingsScreen.logo.currentAlt')}
            sx={{ maxHeight: '100%', maxWidth: '100%', objectFit: 'contain' }}
          />
        ) : (
          <Typography variant="body2" color="text.secondary">
            {t('settingsScreen.logo.none')}
          </Typography>
        )}
      </Box>
      <Typography
        variant="caption"
        color={error ? 'error' : 'text.secondary'}
        role={error ? 'alert' : undefined}
        sx={{ display: 'block', mt: 0.5 }}
      >
        {error ?? t('settingsScreen.logo.hint')}
      </Typography>
      {canEdit && (
        <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap', rowGap: 1 }}>
          {file ? (
            <>
              <Button variant="contained" size="small" onClick={() => void save()} disabled={uploadLogo.isPending}>
                {t('settingsScreen.logo.upload')}
              </Button>
              <Button size="small" color="inherit" onClick={() => setFile(null)}>
                {t('app.cancel')}
              </Button>
            </>
          ) : (
            <>
              <Button variant="outlined" size="small" component="label">
                {t('settingsScreen.logo.choose')}
                <input
                  hidden
                  type="file"
                  accept={LOGO_TYPES.join(',')}
                  data-testid="logo-input"
                  onChange={(e) => choose(e.target.files?.[0])}
                />
              </Button>
              {settings.logo && (
                <Button size="small" color="error" onClick={() => void remove()} disabled={removeLogo.isPending}>
                  {t('settingsScreen.logo.remove')}
                </Button>
              )}
            </>
          )}
        </Stack>
      )}
    </Box>
  );
}
