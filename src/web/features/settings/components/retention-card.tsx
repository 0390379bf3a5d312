/**
 * Personal data: how many days search requests keep the visitor's email and IP address before the
 * retention job deletes them (searchRetentionInput, 1–3650 days; one year by default). Admins change it,
 * staff read it.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import TextField from '@mui/material/TextField';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { SEARCH_RETENTION, searchRetentionInput, type Settings } from '../../../../shared/contract/settings';
import { ApiError } from '../../../lib/api';
import { notifyError, notifySuccess } from '../../../lib/toast';
import { useUpdateSearchRetention } from '../api';

export function RetentionCard({ settings, canEdit }: { settings: Settings; canEdit: boolean }) {
  const { t } = useTranslation();
  const save = useUpdateSearchRetention();
  const [value, setValue] = useState(String(settings.searchRetentionDays));
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setValue(String(settings.searchRetentionDays)), [settings.searchRetentionDays]);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = searchRetentionInput.safeParse({ days: value.trim() === '' ? undefined : value });
    if (!parsed.success) {
      setError('searches.validation.retentionRange');
      return;
    }
    setError(null);
    try {
      const saved = await save.mutateAsync(parsed.data.days);
      notifySuccess(saved.messageKey);
    } catch (err) {
      if (err instanceof ApiError && err.fields.length) setError(err.fields[0]!.key);
      else notifyError(err);
    }
  };

  return (
    <Card component="form" noValidate onSubmit={(e) => void onSubmit(e)} aria-labelledby="retention-title">
      <CardHeader
        title={t('searches.retention.title')}
        subheader={t('searches.retention.hint')}
        slotProps={{ title: { component: 'h2', variant: 'h6', id: 'retention-title' } }}
      />
      <CardContent sx={{ pt: 0 }}>
        <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start', flexWrap: 'wrap' }}>
          <TextField
            id="search-retention-days"
            type="number"
            label={t('searches.retention.days')}
            value={value}
            disabled={!canEdit}
            onChange={(e) => setValue(e.target.value)}
            error={!!error}
            helperText={error ? t(error) : undefined}
            slotProps={{ htmlInput: { min: SEARCH_RETENTION.min, max: SEARCH_RETENTION.max, step: 1, inputMode: 'numeric' } }}
            sx={{ width: { xs: '100%', sm: 300 } }}
          />
          {canEdit && (
            <Button
              type="submit"
              variant="contained"
              disabled={save.isPending || value === String(settings.searchRetentionDays)}
              sx={{ mt: 1 }}
            >
              {t('searches.retention.save')}
            </Button>
          )}
        </Box>
      </CardContent>
    </Card>
  );
}
