/**
 * The text settings as one form over the shared contract's schema (settingsUpdateInput): company, terms
 * in both languages (their version shown; the server makes a new one when they change), the report's
 * statement and footer, the document type, the inspection representative and whether certificates use
 * bench-sent records only. Staff see it read-only.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Controller, useForm, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  SETTINGS_DOCUMENT_TYPES,
  SETTINGS_TEXT_FIELDS,
  settingsUpdateInput,
  type Settings,
  type SettingsUpdateInput,
} from '../../../../shared/contract/settings';
import {
  applyServerErrors,
  FormSelectField,
  FormTextField,
  SubmitButton,
  useUnsavedChangesWarning,
  zodFormResolver,
} from '../../../components/form';
import { notifySuccess } from '../../../lib/toast';
import { useUpdateSettings } from '../api';
import { LogoField } from './logo-field';

function valuesOf(s: Settings): SettingsUpdateInput {
  const texts = Object.fromEntries(SETTINGS_TEXT_FIELDS.map((f) => [f, s[f]])) as unknown as SettingsUpdateInput;
  return { ...texts, benchRecordsOnly: s.benchRecordsOnly, requireCalibratedInstruments: s.requireCalibratedInstruments };
}

/** A yes/no setting: its switch, named by its label, and the hint under it that says what it changes. */
function SettingSwitch({
  control,
  name,
  disabled,
}: {
  control: Control<SettingsUpdateInput>;
  name: 'benchRecordsOnly' | 'requireCalibratedInstruments';
  disabled: boolean;
}) {
  const { t } = useTranslation();
  const hintId = `${name}-hint`;
  return (
    <>
      <Controller
        control={control}
        name={name}
        render={({ field }) => (
          <FormControlLabel
            control={
              <Switch
                checked={field.value ?? false}
                onChange={(e) => field.onChange(e.target.checked)}
                disabled={disabled}
                inputProps={{ 'aria-describedby': hintId }}
              />
            }
            label={t(`settingsScreen.fields.${name}`)}
          />
        )}
      />
      <Typography id={hintId} variant="body2" color="text.secondary">
        {t(`settingsScreen.fields.${name}Hint`)}
      </Typography>
    </>
  );
}

function Section({ title, subheader, action, children }: { title: string; subheader?: string; action?: ReactNode; children: ReactNode }) {
  return (
    <Card>
      <CardHeader title={title} subheader={subheader} action={action} slotProps={{ title: { component: 'h2', variant: 'h6' } }} />
      <CardContent sx={{ pt: 0 }}>{children}</CardContent>
    </Card>
  );
}

export function SettingsForm({ settings, canEdit }: { settings: Settings; canEdit: boolean }) {
  const { t } = useTranslation();
  const update = useUpdateSettings();
  const form = useForm({ resolver: zodFormResolver(settingsUpdateInput), values: valuesOf(settings) });
  const { dialog } = useUnsavedChangesWarning(canEdit && form.formState.isDirty);
  const readOnly = !canEdit;
  const common = { control: form.control, disabled: readOnly } as const;
  const multiline = (rows: number) => ({ multiline: true, minRows: rows, maxRows: rows * 3 });

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const saved = await update.mutateAsync(values);
      form.reset(valuesOf(saved.data));
      notifySuccess(saved.messageKey);
    } catch (err) {
      applyServerErrors(err, form.setError, SETTINGS_TEXT_FIELDS);
    }
  });

  return (
    <Stack component="form" noValidate spacing={3} onSubmit={onSubmit} aria-label={t('settingsScreen.title')}>
      <Section title={t('settingsScreen.company.title')}>
        <Grid container spacing={2.5}>
          <Grid size={{ xs: 12, md: 8 }}>
            <Stack spacing={2.5}>
              <FormTextField {...common} name="companyName" label="settingsScreen.fields.companyName" />
              <FormTextField {...common} name="companyAddress" label="settingsScreen.fields.companyAddress" {...multiline(3)} />
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2.5}>
                <FormTextField {...common} name="companyPostcode" label="settingsScreen.fields.companyPostcode" autoComplete="off" />
                <FormTextField {...common} name="companyCity" label="settingsScreen.fields.companyCity" autoComplete="off" />
                <FormTextField
                  {...common}
                  name="companyCountry"
                  label="settingsScreen.fields.companyCountry"
                  hint={readOnly ? undefined : 'orderScreens.customers.hints.country'}
                  autoComplete="off"
                />
              </Stack>
              <FormTextField
                {...common}
                name="contact"
                label="settingsScreen.fields.contact"
                hint={readOnly ? undefined : 'settingsScreen.fields.contactHint'}
              />
            </Stack>
          </Grid>
          <Grid size={{ xs: 12, md: 4 }}>
            <LogoField settings={settings} canEdit={canEdit} />
          </Grid>
        </Grid>
      </Section>
      <Section
        title={t('settingsScreen.terms.title')}
        subheader={t('settingsScreen.terms.hint')}
        action={
          <Chip
            color="primary"
            variant="outlined"
            label={t('settingsScreen.terms.version', { version: settings.termsVersion })}
            data-testid="terms-version"
            sx={{ mt: 1, mr: 1 }}
          />
        }
      >
        <Grid container spacing={2.5}>
          <Grid size={{ xs: 12, md: 6 }}>
            <FormTextField {...common} name="termsEn" label="settingsScreen.fields.termsEn" {...multiline(6)} />
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            <FormTextField {...common} name="termsZh" label="settingsScreen.fields.termsZh" {...multiline(6)} />
          </Grid>
        </Grid>
      </Section>
      <Section title={t('settingsScreen.report.title')} subheader={t('settingsScreen.report.hint')}>
        <Grid container spacing={2.5}>
          {(['statementEn', 'statementZh', 'footerEn', 'footerZh'] as const).map((name) => (
            <Grid key={name} size={{ xs: 12, md: 6 }}>
              <FormTextField {...common} name={name} label={`settingsScreen.fields.${name}`} {...multiline(3)} />
            </Grid>
          ))}
          <Grid size={{ xs: 12, md: 6 }}>
            <FormSelectField
              {...common}
              name="documentType"
              label="settingsScreen.fields.documentType"
              options={SETTINGS_DOCUMENT_TYPES.map((d) => ({ value: d, label: `search.documentTypes.${d}` }))}
            />
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            <FormTextField
              {...common}
              name="inspectorName"
              label="settingsScreen.fields.inspectorName"
              hint={readOnly ? undefined : 'settingsScreen.fields.inspectorHint'}
            />
          </Grid>
          {(['inspectorStatementEn', 'inspectorStatementZh'] as const).map((name) => (
            <Grid key={name} size={{ xs: 12, md: 6 }}>
              <FormTextField
                {...common}
                name={name}
                label={`settingsScreen.fields.${name}`}
                hint={readOnly ? undefined : 'settingsScreen.fields.inspectorStatementHint'}
                {...multiline(3)}
              />
            </Grid>
          ))}
          <Grid size={{ xs: 12 }}>
            <SettingSwitch control={form.control} name="benchRecordsOnly" disabled={readOnly} />
          </Grid>
          <Grid size={{ xs: 12 }}>
            <SettingSwitch control={form.control} name="requireCalibratedInstruments" disabled={readOnly} />
          </Grid>
        </Grid>
      </Section>
      {canEdit && (
        <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap' }}>
          <SubmitButton saving={form.formState.isSubmitting} label="app.save" disabled={!form.formState.isDirty} />
          <Button variant="outlined" color="inherit" disabled={!form.formState.isDirty} onClick={() => form.reset()}>
            {t('app.reset')}
          </Button>
        </Box>
      )}
      {dialog}
    </Stack>
  );
}
