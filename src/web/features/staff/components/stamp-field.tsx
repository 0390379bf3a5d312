/**
 * An inspector's stamp: the current one, or the chosen file's preview before it is uploaded (PNG or JPEG up
 * to 512 KB; the server checks the content). Upload and remove save at once, apart from the dialog's form.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LOGO_TYPES } from '../../../../shared/contract/settings';
import { STAMP_MAX_BYTES, type StaffMember } from '../../../../shared/contract/staff';
import { ApiError } from '../../../lib/api';
import { notifyError, notifySuccess } from '../../../lib/toast';
import { stampHref, useRemoveStamp, useUploadStamp } from '../api';

export function StampField({ member }: { member: StaffMember }) {
  const { t } = useTranslation();
  const upload = useUploadStamp();
  const remove = useRemoveStamp();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The dialog's member is the one it opened with: the stamp's state is kept here after a change.
  const [current, setCurrent] = useState<string | null>(stampHref(member));

  useEffect(() => {
    if (!file) return setPreview(null);
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  function choose(f: File | undefined) {
    setError(null);
    if (!f) return;
    if (!(LOGO_TYPES as readonly string[]).includes(f.type)) return setError(t('staff.stamp.type'));
    if (f.size > STAMP_MAX_BYTES) return setError(t('staff.stamp.tooLarge'));
    setFile(f);
  }

  async function save() {
    if (!file) return;
    try {
      const saved = await upload.mutateAsync({ id: member.id, file });
      setCurrent(stampHref({ id: member.id, stampSha256: saved.stampSha256 }));
      setFile(null);
      notifySuccess('staff.stamp.saved');
    } catch (err) {
      const field = err instanceof ApiError ? err.fields.find((f) => f.field === 'file') : undefined;
      if (field) setError(t(field.key, { ...field.params, defaultValue: err instanceof Error ? err.message : '' }));
      else notifyError(err);
    }
  }

  async function onRemove() {
    try {
      await remove.mutateAsync(member.id);
      setCurrent(null);
      notifySuccess('staff.stamp.removed');
    } catch (err) {
      notifyError(err);
    }
  }

  const shown = preview ?? current;
  return (
    <Box>
      <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
        {t('staffScreens.stamp')}
      </Typography>
      <Box
        sx={{
          height: 80,
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          p: 1,
          bgcolor: '#fff',
        }}
        data-testid="stamp-preview"
      >
        {shown ? (
          <Box
            component="img"
            src={shown}
            alt={t('staffScreens.stampAlt', { name: member.name })}
            sx={{ maxHeight: '100%', maxWidth: '100%', objectFit: 'contain' }}
          />
        ) : (
          <Typography variant="body2" color="text.secondary">
            {t('staffScreens.stampNone')}
          </Typography>
        )}
      </Box>
      <Typography
        variant="caption"
        color={error ? 'error' : 'text.secondary'}
        role={error ? 'alert' : undefined}
        sx={{ display: 'block', mt: 0.5 }}
      >
        {error ?? t('staffScreens.stampHint')}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap', rowGap: 1 }}>
        {file ? (
          <>
            <Button variant="contained" size="small" onClick={() => void save()} disabled={upload.isPending}>
              {t('staffScreens.stampUpload')}
            </Button>
            <Button size="small" color="inherit" onClick={() => setFile(null)}>
              {t('app.cancel')}
            </Button>
          </>
        ) : (
          <>
            <Button variant="outlined" size="small" component="label">
              {t(current ? 'staffScreens.stampReplace' : 'staffScreens.stampUpload')}
              <input
                hidden
                type="file"
                accept={LOGO_TYPES.join(',')}
                data-testid="stamp-input"
                onChange={(e) => choose(e.target.files?.[0])}
              />
            </Button>
            {current && (
              <Button size="small" color="error" onClick={() => void onRemove()} disabled={remove.isPending}>
                {t('staffScreens.stampRemove')}
              </Button>
            )}
          </>
        )}
      </Stack>
    </Box>
  );
}
