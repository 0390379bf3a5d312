/**
 * Step 2, loaded only once step 1 found something: the terms (in the page language, with their version),
 * the required agreement, the email address, the report language, the proof-of-work and the submit. The
 * form uses the shared contract's schema as its resolver, like every other form; zod and react-hook-form
 * arrive with this chunk, not with the first load.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { PublicSettings } from '../../../../shared/contract/settings';
import { LANGUAGES, type Language } from '../../../../shared/i18n/index';
import { FormCheckbox } from '../../../components/form/form-checkbox';
import { FormTextField } from '../../../components/form/form-text-field';
import { applyServerErrors } from '../../../components/form/server-errors';
import { SubmitButton } from '../../../components/form/submit-button';
import { ApiError } from '../../../lib/api';
import { errorMessage } from '../../../lib/errors';
import { requestReports } from '../api';
import { requestFormResolver } from '../lib/request-form';
import type { ReportRequestResult } from '../lib/public-types';
import { useChallenge } from '../lib/use-challenge';
import { MuiIsland } from './mui-island';

export interface RequestStepProps {
  serials: string[];
  site: PublicSettings | null;
  onDone: (result: ReportRequestResult, email: string) => void;
}

/** Drawn with MUI inside the page's lazy MUI provider (./mui-island). */
export default function RequestStep(props: RequestStepProps) {
  return (
    <MuiIsland>
      <RequestStepForm {...props} />
    </MuiIsland>
  );
}

function RequestStepForm({ serials, site, onDone }: RequestStepProps) {
  const { t, i18n } = useTranslation();
  const challenge = useChallenge();
  const [failure, setFailure] = useState<string | null>(null);
  const alert = useRef<HTMLDivElement>(null);
  const pageLanguage = (LANGUAGES as readonly string[]).includes(i18n.language) ? (i18n.language as Language) : 'en';
  const form = useForm({
    resolver: requestFormResolver,
    defaultValues: { email: '', agreeToTerms: false, language: pageLanguage, bilingual: false },
  });
  const terms = site ? (pageLanguage === 'zh' ? site.terms.zh : site.terms.en) || site.terms.en || site.terms.zh : '';

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    const solution = await challenge.take();
    if (!solution) {
      challenge.renew();
      return showFailure(t('search.request.challengeFailed'));
    }
    try {
      const result = await requestReports({ ...values, serials, challenge: solution, termsVersion: site?.termsVersion });
      onDone(result, values.email);
    } catch (err) {
      challenge.renew();
      if (!(err instanceof ApiError) || !applyServerErrors(err, form.setError, ['email', 'agreeToTerms', 'language', 'bilingual']))
        showFailure(errorMessage(t, err));
    }
  });

  function showFailure(text: string) {
    setFailure(text);
    requestAnimationFrame(() => alert.current?.focus());
  }

  return (
    <Stack component="form" noValidate spacing={2.5} onSubmit={onSubmit} aria-labelledby="request-heading">
      {failure && (
        <Alert severity="error" role="alert" ref={alert} tabIndex={-1}>
          {failure}
        </Alert>
      )}
      <Box>
        <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600 }} id="terms-heading">
          {t('search.request.terms')}
        </Typography>
        {site && (
          <Typography variant="body2" color="text.secondary" data-testid="terms-version">
            {t('search.request.termsVersion', { version: site.termsVersion })}
          </Typography>
        )}
        <Box
          role="region"
          aria-labelledby="terms-heading"
          tabIndex={0}
          data-testid="terms-text"
          sx={{
            mt: 1,
            p: 1.5,
            maxHeight: 180,
            overflowY: 'auto',
            whiteSpace: 'pre-wrap',
            bgcolor: 'action.hover',
            borderRadius: 1,
            typography: 'body2',
          }}
        >
          {terms || t('search.request.noTerms')}
        </Box>
      </Box>
      <FormCheckbox control={form.control} name="agreeToTerms" label="search.request.agree" required />
      <FormTextField control={form.control} name="email" label="search.request.email" type="email" autoComplete="email" inputMode="email" />
      <Controller
        control={form.control}
        name="language"
        render={({ field }) => (
          <FormControl>
            <FormLabel id="report-language-label">{t('search.request.language')}</FormLabel>
            <RadioGroup
              row
              aria-labelledby="report-language-label"
              name={field.name}
              value={field.value}
              onChange={(e) => field.onChange(e.target.value)}
            >
              {LANGUAGES.map((l) => (
                <FormControlLabel key={l} value={l} control={<Radio />} label={<span lang={l}>{t(`app.languages.${l}`)}</span>} />
              ))}
            </RadioGroup>
          </FormControl>
        )}
      />
      <FormCheckbox control={form.control} name="bilingual" label="search.request.bilingual" hint="search.request.bilingualHelp" />
      <Typography variant="body2" color="text.secondary" role="status" data-testid="challenge-state">
        {t(`search.request.challenge.${challenge.state}`)}
      </Typography>
      <SubmitButton saving={form.formState.isSubmitting} label="search.request.submit" size="large" />
    </Stack>
  );
}
