/**
 * The one time an endpoint's signing secret is shown (after create or rotate): read-only, a copy button and
 * a warning that it cannot be shown again. A click beside the dialog does not close it; only the button does.
 */
import ContentCopy from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { WebhookWithSecret } from '../../../../shared/contract/webhooks';

export function SecretDialog({ issued, onClose }: { issued: WebhookWithSecret | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  const input = useRef<HTMLInputElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(issued?.secret ?? '');
      setCopied('yes');
    } catch {
      // No clipboard permission (plain HTTP): select the text so Ctrl+C works.
      input.current?.select();
      setCopied('failed');
    }
  };
  const close = () => {
    setCopied('no');
    onClose();
  };
  return (
    <Dialog
      open={!!issued}
      onClose={(_, reason) => {
        if (reason !== 'backdropClick') close();
      }}
      aria-labelledby="webhook-secret-title"
      aria-describedby="webhook-secret-warning"
      fullWidth
      maxWidth="sm"
    >
      <DialogTitle id="webhook-secret-title">{t('webhooks.screen.secret.title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Alert severity="warning" id="webhook-secret-warning">
            {t('webhooks.screen.secret.warning')}
          </Alert>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }}>
            <TextField
              label={t('webhooks.screen.secret.label')}
              value={issued?.secret ?? ''}
              fullWidth
              inputRef={input}
              onFocus={(e) => e.target.select()}
              helperText={
                copied === 'yes' ? t('webhooks.screen.secret.copied') : copied === 'failed' ? t('webhooks.screen.secret.copyFailed') : ' '
              }
              slotProps={{
                htmlInput: {
                  readOnly: true,
                  spellCheck: false,
                  'data-testid': 'webhook-secret',
                  style: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 13 },
                },
                formHelperText: { role: 'status' },
              }}
            />
            <Button variant="outlined" startIcon={<ContentCopy />} onClick={() => void copy()} sx={{ flexShrink: 0, mt: { sm: 1 } }}>
              {t('webhooks.screen.secret.copy')}
            </Button>
          </Stack>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={close}>
          {t('webhooks.screen.secret.done')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
