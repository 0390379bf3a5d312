/**
 * Delete with confirmation, for any list. A refusal (a product that ranges still use, a bench that has
 * records) is shown in the dialog with the server's message, so the user reads why nothing was deleted.
 *
 *   const del = useDeleteFlow<Product>({
 *     title: 'products.deleteTitle',
 *     text: (p) => t('products.deleteConfirm', { name: p.name }),
 *     remove: (p) => remove.mutateAsync(p.id),
 *     done: 'products.deleted',
 *   });
 *   … onClick={() => del.ask(row)} …   and render {del.dialog} once on the page.
 */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/errors';
import { notifySuccess } from '../../lib/toast';

export function DeleteDialog({
  open,
  title,
  text,
  onDelete,
  onClose,
}: {
  open: boolean;
  title: string;
  text: string;
  /** resolves when deleted; a rejection is shown in the dialog */
  onDelete: () => Promise<unknown>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (open) setError(null);
  }, [open]);

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onDelete();
      onClose();
    } catch (err) {
      setError(errorMessage(t, err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} aria-labelledby="delete-title" aria-describedby="delete-text">
      <DialogTitle id="delete-title">{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id="delete-text">{text}</DialogContentText>
        {error && (
          <Alert severity="error" sx={{ mt: 2 }} data-testid="delete-error">
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} autoFocus disabled={busy}>
          {t(error ? 'app.close' : 'app.cancel')}
        </Button>
        {!error && (
          <Button
            color="error"
            variant="contained"
            onClick={() => void confirm()}
            disabled={busy}
            // error.dark keeps white text readable in the dark theme too (error.main is too light there).
            sx={{ bgcolor: 'error.dark', '&:hover': { bgcolor: 'error.dark', filter: 'brightness(0.9)' } }}
            startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}
          >
            {t('app.delete')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}

export interface DeleteFlowOptions<T> {
  /** i18n key of the dialog's title */
  title: string;
  /** the question, translated, naming the record */
  text: (row: T) => string;
  /** deletes; a rejection is shown in the dialog */
  remove: (row: T) => Promise<unknown>;
  /** i18n key of the toast after a deletion */
  done?: string;
}

/** `ask(row)` opens the confirmation; `dialog` is rendered once on the page. */
export function useDeleteFlow<T>({ title, text, remove, done }: DeleteFlowOptions<T>): { ask: (row: T) => void; dialog: ReactNode } {
  const { t } = useTranslation();
  // The row stays while the dialog closes, so its text does not blank out during the animation.
  const [state, setState] = useState<{ row: T; open: boolean } | null>(null);
  const ask = useCallback((row: T) => setState({ row, open: true }), []);
  const dialog = (
    <DeleteDialog
      open={!!state?.open}
      title={t(title)}
      text={state ? text(state.row) : ''}
      onDelete={async () => {
        if (!state) return;
        await remove(state.row);
        if (done) notifySuccess(done);
      }}
      onClose={() => setState((s) => (s ? { ...s, open: false } : null))}
    />
  );
  return { ask, dialog };
}
