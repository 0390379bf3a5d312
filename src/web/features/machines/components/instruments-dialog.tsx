/**
 * A bench's instruments (admins): each with its calibration in force and how its due date stands, the earlier
 * calibrations kept below it, a recalibration added, and a new instrument with its first calibration. The
 * forms check with the schemas the server uses (src/shared/contract/instruments.ts).
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { usePhone } from '../../../lib/use-phone';
import { useState } from 'react';
import { useForm, type Control, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  calibrationInput,
  dueState,
  instrumentCreateInput,
  INSTRUMENT_KINDS,
  type CalibrationInput,
  type Instrument,
  type InstrumentCreateInput,
} from '../../../../shared/contract/instruments';
import type { Machine } from '../../../../shared/contract/machines';
import { labelled, semicolon } from '../../../../shared/i18n/punctuation';
import { applyServerErrors, FormSelectField, FormTextField, SubmitButton, zodFormResolver } from '../../../components/form';
import { formatDay, formatNumber } from '../../../components/format';
import { notifySuccess } from '../../../lib/toast';
import { useAddCalibration, useCreateInstrument, useInstruments } from '../api';

const today = () => new Date().toISOString().slice(0, 10);
const DUE_COLOURS = { overdue: 'error', 'due-soon': 'warning', current: 'success' } as const;

export function InstrumentsDialog({ machine, onClose }: { machine: Machine; onClose: () => void }) {
  const { t } = useTranslation();
  const phone = usePhone();
  const instruments = useInstruments(machine.id);
  const [adding, setAdding] = useState(false);
  const list = instruments.data ?? [];
  return (
    <Dialog open onClose={onClose} aria-labelledby="bench-instruments-title" fullScreen={phone} fullWidth maxWidth="md">
      <DialogTitle id="bench-instruments-title">{t('machineScreens.instruments.title', { name: machine.name })}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{t('machineScreens.instruments.hint')}</DialogContentText>
        {instruments.isPending ? (
          <CircularProgress size={24} aria-label={t('app.loading')} />
        ) : list.length === 0 && !adding ? (
          <Typography sx={{ mb: 2 }}>{t('machineScreens.instruments.none')}</Typography>
        ) : (
          <Stack divider={<Divider flexItem />} spacing={2} sx={{ mb: 2 }} data-testid="instrument-list">
            {list.map((x) => (
              <InstrumentEntry key={x.id} machine={machine} instrument={x} />
            ))}
          </Stack>
        )}
        {adding ? (
          <AddInstrumentForm machine={machine} onDone={() => setAdding(false)} />
        ) : (
          <Button variant="outlined" onClick={() => setAdding(true)}>
            {t('machineScreens.instruments.add')}
          </Button>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('app.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

function InstrumentEntry({ machine, instrument: x }: { machine: Machine; instrument: Instrument }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [recalibrating, setRecalibrating] = useState(false);
  const state = dueState(x.dueOn, today());
  return (
    <Box data-testid="instrument" component="section" aria-labelledby={`instrument-${x.id}`}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Typography id={`instrument-${x.id}`} component="h3" variant="subtitle1" sx={{ fontWeight: 600, wordBreak: 'break-word' }}>
          {x.instrumentId}
        </Typography>
        {/* Outlined with the text in the body colour: a filled orange chip's white text fails contrast. */}
        <Chip
          size="small"
          variant="outlined"
          color={DUE_COLOURS[state]}
          sx={{ color: 'text.primary', borderWidth: 2 }}
          label={t(`machineScreens.instruments.due.${state}`)}
          data-testid="instrument-due"
        />
      </Stack>
      <Typography variant="body2" color="text.secondary">
        {t('machineScreens.instruments.summary', {
          kind: t(`machineScreens.instruments.kinds.${x.kind}`),
          range: formatNumber(lang, x.rangeMax),
          accuracy: formatNumber(lang, x.accuracy),
        })}
      </Typography>
      <Typography variant="body2">
        {labelled(
          lang,
          t('machineScreens.instruments.calibration'),
          t('machineScreens.instruments.calibrationText', {
            certificate: x.calibrationCertificate,
            from: formatDay(lang, x.calibratedOn),
            due: formatDay(lang, x.dueOn),
          }),
        )}
      </Typography>
      {x.calibrations.length > 1 && (
        <Typography variant="body2" color="text.secondary" data-testid="instrument-earlier">
          {labelled(
            lang,
            t('machineScreens.instruments.earlier'),
            x.calibrations
              .slice(1)
              .map((c) =>
                t('machineScreens.instruments.calibrationText', {
                  certificate: c.calibrationCertificate,
                  from: formatDay(lang, c.calibratedOn),
                  due: formatDay(lang, c.dueOn),
                }),
              )
              .join(semicolon(lang)),
          )}
        </Typography>
      )}
      {recalibrating ? (
        <CalibrationForm machine={machine} instrument={x} onDone={() => setRecalibrating(false)} />
      ) : (
        <Button
          size="small"
          sx={{ mt: 1 }}
          onClick={() => setRecalibrating(true)}
          aria-label={t('machineScreens.instruments.recalibrateFor', { id: x.instrumentId })}
        >
          {t('machineScreens.instruments.recalibrate')}
        </Button>
      )}
    </Box>
  );
}

function CalibrationForm({ machine, instrument, onDone }: { machine: Machine; instrument: Instrument; onDone: () => void }) {
  const { t } = useTranslation();
  const add = useAddCalibration(machine.id);
  const form = useForm<CalibrationInput>({
    resolver: zodFormResolver(calibrationInput),
    defaultValues: { calibrationCertificate: '', calibratedOn: '', dueOn: '' },
  });
  const submit = form.handleSubmit(async (v) => {
    try {
      await add.mutateAsync({ id: instrument.id, ...calibrationInput.parse(v) });
      notifySuccess('machineScreens.instruments.recalibrated', { id: instrument.instrumentId });
      onDone();
    } catch (err) {
      applyServerErrors(err, form.setError, ['calibrationCertificate', 'calibratedOn', 'dueOn']);
    }
  });
  return (
    <Box
      component="form"
      noValidate
      onSubmit={submit}
      sx={{ mt: 2 }}
      aria-label={t('machineScreens.instruments.recalibrateFor', { id: instrument.instrumentId })}
    >
      <CalibrationFields control={form.control} />
      <Stack direction="row" spacing={1} sx={{ mt: 1, justifyContent: 'flex-end' }}>
        <Button onClick={onDone}>{t('app.cancel')}</Button>
        <SubmitButton saving={form.formState.isSubmitting} label="app.save" />
      </Stack>
    </Box>
  );
}

function AddInstrumentForm({ machine, onDone }: { machine: Machine; onDone: () => void }) {
  const { t } = useTranslation();
  const create = useCreateInstrument(machine.id);
  const form = useForm<InstrumentCreateInput>({
    resolver: zodFormResolver(instrumentCreateInput),
    defaultValues: { instrumentId: '', kind: 'gauge', rangeMax: '', accuracy: '', calibrationCertificate: '', calibratedOn: '', dueOn: '' },
  });
  const submit = form.handleSubmit(async (v) => {
    try {
      const created = await create.mutateAsync(instrumentCreateInput.parse(v));
      notifySuccess('machineScreens.instruments.added', { id: created.instrumentId });
      onDone();
    } catch (err) {
      applyServerErrors(err, form.setError, [
        'instrumentId',
        'kind',
        'rangeMax',
        'accuracy',
        'calibrationCertificate',
        'calibratedOn',
        'dueOn',
      ]);
    }
  });
  return (
    <Box component="form" noValidate onSubmit={submit} aria-label={t('machineScreens.instruments.add')} data-testid="instrument-form">
      <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
        {t('machineScreens.instruments.add')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        <FormTextField
          control={form.control}
          name="instrumentId"
          label="machineScreens.instruments.fields.instrumentId"
          autoFocus
          autoComplete="off"
        />
        <FormSelectField
          control={form.control}
          name="kind"
          label="machineScreens.instruments.fields.kind"
          options={INSTRUMENT_KINDS.map((k) => ({ value: k, label: `machineScreens.instruments.kinds.${k}` }))}
        />
        <FormTextField control={form.control} name="rangeMax" label="machineScreens.instruments.fields.rangeMax" inputMode="decimal" />
        <FormTextField control={form.control} name="accuracy" label="machineScreens.instruments.fields.accuracy" inputMode="decimal" />
      </Box>
      <Box sx={{ mt: 2 }}>
        <CalibrationFields control={form.control} />
      </Box>
      <Stack direction="row" spacing={1} sx={{ mt: 1, justifyContent: 'flex-end' }}>
        <Button onClick={onDone}>{t('app.cancel')}</Button>
        <SubmitButton saving={form.formState.isSubmitting} label="app.save" />
      </Stack>
    </Box>
  );
}

/** The certificate and the two days of a calibration, in the form of either kind. */
function CalibrationFields<T extends CalibrationInput>({ control }: { control: Control<T> }) {
  const name = (n: keyof CalibrationInput) => n as Path<T>;
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '2fr 1fr 1fr' } }}>
      <FormTextField
        control={control}
        name={name('calibrationCertificate')}
        label="machineScreens.instruments.fields.calibrationCertificate"
        autoComplete="off"
      />
      <FormTextField control={control} name={name('calibratedOn')} label="machineScreens.instruments.fields.calibratedOn" type="date" />
      <FormTextField control={control} name={name('dueOn')} label="machineScreens.instruments.fields.dueOn" type="date" />
    </Box>
  );
}
