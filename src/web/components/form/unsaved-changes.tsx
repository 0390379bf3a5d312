/**
 * A warning before leaving a form with unsaved changes: a dialog for navigation inside the app, the
 * browser's own prompt for reload or closing the tab. Call `allowLeave()` before navigating after a save.
 */
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useCallback, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';

export function useUnsavedChangesWarning(dirty: boolean) {
  const { t } = useTranslation();
  const bypass = useRef(false);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && !bypass.current && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (!dirty) return undefined;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      if (bypass.current) return;
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  const allowLeave = useCallback(() => {
    bypass.current = true;
  }, []);

  const dialog = (
    <Dialog open={blocker.state === 'blocked'} onClose={() => blocker.reset?.()} aria-labelledby="unsaved-title">
      <DialogTitle id="unsaved-title">{t('form.unsavedTitle')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{t('form.unsavedText')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => blocker.reset?.()} autoFocus>
          {t('form.stay')}
        </Button>
        <Button color="error" onClick={() => blocker.proceed?.()}>
          {t('form.leave')}
        </Button>
      </DialogActions>
    </Dialog>
  );

  return { dialog, allowLeave };
}
