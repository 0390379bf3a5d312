/**
 * The test record archive (docs/decisions/0072-record-archive.md): how many years after a unit's last test its
 * records stay in the working lists (recordRetentionInput, 1–100, or every record kept, the default), and
 * what the archive holds. Admins change it after confirming the date it cuts at; staff read it.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { RECORD_RETENTION, recordRetentionInput, type Settings } from '../../../../shared/contract/settings';
import { formatDay, formatNumber } from '../../../../shared/format/dates';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ApiError } from '../../../lib/api';
import { notifyError, notifySuccess } from '../../../lib/toast';
import { useRecordArchive, useUpdateRecordRetention } from '../api';

/** The day a retention of `years` cuts at, as of today (the server's job computes the same from its clock). */
function cutDay(years: number): string {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() - years);
  return d.toISOString().slice(0, 10);
}

export function RecordArchiveCard({ settings, canEdit }: { settings: Settings; canEdit: boolean }) {
  const { t, i18n } = useTranslation();
  const save = useUpdateRecordRetention();
  const archive = useRecordArchive();
  const stored = settings.recordRetentionYears;
  const [keepAll, setKeepAll] = useState(stored === null);
  const [value, setValue] = useState(stored === null ? '' : String(stored));
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<number | null>(null);
  useEffect(() => {
    setKeepAll(stored === null);
    setValue(stored === null ? '' : String(stored));
  }, [stored]);

  const submit = async (years: number | null) => {
    try {
      const saved = await save.mutateAsync(years);
      notifySuccess(saved.messageKey);
      setConfirming(null);
    } catch (err) {
      setConfirming(null);
      if (err instanceof ApiError && err.fields.length) setError(err.fields[0]!.key);
      else notifyError(err);
    }
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const years = keepAll ? null : value.trim() === '' ? Number.NaN : Number(value);
    const parsed = recordRetentionInput.safeParse({ years });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'settings.validation.recordRetentionRange');
      return;
    }
    setError(null);
    // Archiving takes records out of every working list: asked once more, with the date it cuts at.
    if (parsed.data.years === null) void submit(null);
    else setConfirming(parsed.data.years);
  };

  const unchanged = keepAll ? stored === null : value === String(stored ?? '');
  const info = archive.data;
  const lang = i18n.language === 'zh' ? 'zh' : 'en';
  return (
    <Card component="form" noValidate onSubmit={onSubmit} aria-labelledby="record-archive-title" data-testid="record-archive">
      <CardHeader
        title={t('settingsScreen.archive.title')}
        subheader={t('settingsScreen.archive.hint')}
        slotProps={{ title: { component: 'h2', variant: 'h6', id: 'record-archive-title' } }}
      />
      <CardContent sx={{ pt: 0 }}>
        <FormControlLabel
          control={
            <Checkbox
              checked={keepAll}
              disabled={!canEdit}
              onChange={(e) => {
                setKeepAll(e.target.checked);
                setError(null);
              }}
            />
          }
          label={t('settingsScreen.archive.keepAll')}
        />
        <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start', flexWrap: 'wrap', mt: 1 }}>
          <TextField
            id="record-retention-years"
            type="number"
            label={t('settingsScreen.archive.years')}
            value={value}
            disabled={!canEdit || keepAll}
            onChange={(e) => setValue(e.target.value)}
            error={!!error}
            helperText={error ? t(error) : undefined}
            slotProps={{ htmlInput: { min: RECORD_RETENTION.min, max: RECORD_RETENTION.max, step: 1, inputMode: 'numeric' } }}
            sx={{ width: { xs: '100%', sm: 300 } }}
          />
          {canEdit && (
            <Button type="submit" variant="contained" disabled={save.isPending || unchanged} sx={{ mt: 1 }}>
              {t('settingsScreen.archive.save')}
            </Button>
          )}
        </Box>
        {info && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }} data-testid="record-archive-info">
            {info.records > 0 && info.newestTestedAt
              ? t('settingsScreen.archive.archived', {
                  count: info.records,
                  formattedCount: formatNumber(lang, info.records, 0),
                  date: formatDay(lang, info.newestTestedAt.slice(0, 10)),
                })
              : t('settingsScreen.archive.archivedNone')}
          </Typography>
        )}
      </CardContent>
      <ConfirmDialog
        open={confirming !== null}
        title={t('settingsScreen.archive.confirmTitle', { years: confirming ?? 0 })}
        text={t('settingsScreen.archive.confirmText', { date: formatDay(lang, cutDay(confirming ?? 0)) })}
        confirmLabel={t('settingsScreen.archive.save')}
        busy={save.isPending}
        onConfirm={() => void submit(confirming)}
        onClose={() => setConfirming(null)}
      />
    </Card>
  );
}
