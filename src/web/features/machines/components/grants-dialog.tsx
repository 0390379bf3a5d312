/** Who may import test records in a bench's name: the staff accounts, ticked where an admin granted it. */
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Machine } from '../../../../shared/contract/machines';
import { SubmitButton } from '../../../components/form';
import { notifyError, notifySuccess } from '../../../lib/toast';
import { useImportGrants, useSaveImportGrants } from '../api';

export function GrantsDialog({ machine, onClose }: { machine: Machine; onClose: () => void }) {
  const { t } = useTranslation();
  const grants = useImportGrants(machine.id);
  const save = useSaveImportGrants(machine.id);
  const [ticked, setTicked] = useState<Set<string>>(new Set());
  useEffect(() => {
    if (grants.data) setTicked(new Set(grants.data.userIds));
  }, [grants.data]);
  const toggle = (id: string) =>
    setTicked((s) => {
      const next = new Set(s);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    try {
      await save.mutateAsync([...ticked]);
      notifySuccess('machineScreens.benches.grantsSaved');
      onClose();
    } catch (err) {
      notifyError(err);
    }
  };
  const candidates = grants.data?.candidates ?? [];
  return (
    <Dialog open onClose={onClose} aria-labelledby="bench-grants-title" fullWidth maxWidth="sm">
      <form noValidate onSubmit={(e) => void submit(e)}>
        <DialogTitle id="bench-grants-title">{t('machineScreens.benches.grantsTitle', { name: machine.name })}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{t('machineScreens.benches.grantsHint')}</DialogContentText>
          {grants.isPending ? (
            <CircularProgress size={24} aria-label={t('app.loading')} />
          ) : candidates.length === 0 ? (
            <DialogContentText>{t('machineScreens.benches.grantsNone')}</DialogContentText>
          ) : (
            <FormGroup>
              {candidates.map((c) => (
                <FormControlLabel
                  key={c.id}
                  control={<Checkbox checked={ticked.has(c.id)} onChange={() => toggle(c.id)} />}
                  label={`${c.name} (${c.email})`}
                  sx={{ wordBreak: 'break-word' }}
                />
              ))}
            </FormGroup>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('app.cancel')}</Button>
          <SubmitButton saving={save.isPending} label="app.save" disabled={grants.isPending} />
        </DialogActions>
      </form>
    </Dialog>
  );
}
