/**
 * The one time a bench's API key is shown (after create or rotate): a read-only field, a copy button and a
 * warning that it cannot be shown again. A click beside the dialog does not close it, so the key is not
 * lost by accident; only the button does.
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
import type { MachineWithKey } from '../../../../shared/contract/machines';

export function KeyDialog({ issued, onClose }: { issued: MachineWithKey | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  const input = useRef<HTMLInputElement>(null);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(issued?.key ?? '');
      setCopied('yes');
    } catch {
      // No clipboard permission (plain HTTP, an old browser): select the text so Ctrl+C works.
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
      aria-labelledby="key-title"
      aria-describedby="key-warning"
      fullWidth
      maxWidth="sm"
    >
      <DialogTitle id="key-title">{t('machineScreens.key.title', { name: issued?.machine.name ?? '' })}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Alert severity="warning" id="key-warning">
            {t('machineScreens.key.warning')}
          </Alert>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }}>
            <TextField
              label={t('machineScreens.key.label')}
              value={issued?.key ?? ''}
              fullWidth
              inputRef={input}
              onFocus={(e) => e.target.select()}
              helperText={
                copied === 'yes' ? t('machineScreens.key.copied') : copied === 'failed' ? t('machineScreens.key.copyFailed') : ' '
              }
              slotProps={{
                htmlInput: {
                  readOnly: true,
                  spellCheck: false,
                  'data-testid': 'machine-key',
                  style: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 13 },
                },
                formHelperText: { role: 'status' },
              }}
            />
            <Button variant="outlined" startIcon={<ContentCopy />} onClick={() => void copy()} sx={{ flexShrink: 0, mt: { sm: 1 } }}>
              {t('machineScreens.key.copy')}
            </Button>
          </Stack>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={close}>
          {t('machineScreens.key.done')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
