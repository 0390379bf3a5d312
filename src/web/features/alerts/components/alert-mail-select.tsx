/** The user's own choice of alert email: each alert at once, a daily digest in their language, or none. */
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ALERT_MAIL_CHOICES, type AlertMailChoice } from '../../../../shared/contract/alerts';
import { errorMessage } from '../../../lib/errors';
import { useAlertMail, useSetAlertMail } from '../api';

export function AlertMailSelect() {
  const { t } = useTranslation();
  const current = useAlertMail();
  const change = useSetAlertMail();
  return (
    <TextField
      select
      size="small"
      id="alert-mail"
      label={t('alerts.prefs.label')}
      value={current.data?.alertMail ?? ''}
      disabled={!current.data || change.isPending}
      sx={{ minWidth: 200 }}
      onChange={(e) => change.mutate(e.target.value as AlertMailChoice, { onError: (err) => toast.error(errorMessage(t, err)) })}
    >
      {ALERT_MAIL_CHOICES.map((c) => (
        <MenuItem key={c} value={c}>
          {t(`alerts.prefs.${c}`)}
        </MenuItem>
      ))}
    </TextField>
  );
}
