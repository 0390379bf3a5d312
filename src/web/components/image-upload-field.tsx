/**
 * An image a certificate prints (the company's logo, an inspector's stamp): the current one, or the chosen
 * file's preview before it is uploaded. The type and size are checked as the file is chosen; the server checks
 * the content, and a refusal naming the file is shown under it. Upload and remove save at once.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../lib/api';
import { notifyError } from '../lib/toast';

const IMAGE_TYPES = ['image/png', 'image/jpeg'] as const;

export interface ImageUploadFieldProps {
  title: string;
  /** the stored image's address (null: none) */
  current: string | null;
  /** alt texts: the stored image, the chosen file's preview */
  alt: { current: string; preview: string };
  hint: string;
  none: string;
  maxBytes: number;
  /** message keys for a file of another type or over maxBytes */
  refused: { type: string; tooLarge: string };
  labels: { choose: string; upload: string; remove: string };
  canEdit: boolean;
  height: number;
  /** the prefix of the preview's and the input's test ids */
  testId: string;
  upload: (file: File) => Promise<void>;
  remove: () => Promise<void>;
  uploading: boolean;
  removing: boolean;
}

export function ImageUploadField(p: ImageUploadFieldProps) {
  const { t } = useTranslation();
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
    if (!(IMAGE_TYPES as readonly string[]).includes(f.type)) return setError(t(p.refused.type));
    if (f.size > p.maxBytes) return setError(t(p.refused.tooLarge));
    setFile(f);
  }

  async function save() {
    if (!file) return;
    try {
      await p.upload(file);
      setFile(null);
    } catch (err) {
      const field = err instanceof ApiError ? err.fields.find((f) => f.field === 'file') : undefined;
      if (field) setError(t(field.key, { ...field.params, defaultValue: err instanceof Error ? err.message : '' }));
      else notifyError(err);
    }
  }

  async function remove() {
    try {
      await p.remove();
    } catch (err) {
      notifyError(err);
    }
  }

  const shown = preview ?? p.current;
  return (
    <Box>
      <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
        {p.title}
      </Typography>
      <Box
        sx={{
          height: p.height,
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          p: 1,
          bgcolor: '#fff',
        }}
        data-testid={`${p.testId}-preview`}
      >
        {shown ? (
          <Box
            component="img"
            src={shown}
            alt={preview ? p.alt.preview : p.alt.current}
            sx={{ maxHeight: '100%', maxWidth: '100%', objectFit: 'contain' }}
          />
        ) : (
          <Typography variant="body2" color="text.secondary">
            {p.none}
          </Typography>
        )}
      </Box>
      <Typography
        variant="caption"
        color={error ? 'error' : 'text.secondary'}
        role={error ? 'alert' : undefined}
        sx={{ display: 'block', mt: 0.5 }}
      >
        {error ?? p.hint}
      </Typography>
      {p.canEdit && (
        <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap', rowGap: 1 }}>
          {file ? (
            <>
              <Button variant="contained" size="small" onClick={() => void save()} disabled={p.uploading}>
                {p.labels.upload}
              </Button>
              <Button size="small" color="inherit" onClick={() => setFile(null)}>
                {t('app.cancel')}
              </Button>
            </>
          ) : (
            <>
              <Button variant="outlined" size="small" component="label">
                {p.labels.choose}
                <input
                  hidden
                  type="file"
                  accept={IMAGE_TYPES.join(',')}
                  data-testid={`${p.testId}-input`}
                  onChange={(e) => choose(e.target.files?.[0])}
                />
              </Button>
              {p.current && (
                <Button size="small" color="error" onClick={() => void remove()} disabled={p.removing}>
                  {p.labels.remove}
                </Button>
              )}
            </>
          )}
        </Stack>
      )}
    </Box>
  );
}
