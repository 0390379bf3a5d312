/**
 * The public Test Report Center (docs/product.md §4), designed for a 390 px phone first. Step 1 looks up one
 * serial or up to 20; step 2 (its own chunk, loaded after a successful lookup) asks for the agreement, the
 * address and the report language, and shows the issued report. `?report=<id>` (the QR code's link) opens
 * on the verification of that report; a code or a dropped file can be checked at the bottom.
 */
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PublicSettings } from '../../../../shared/contract/settings';
import { LoadingBar } from '../../../lib/loading-bar';
import { fetchSite, verifyById } from '../api';
import { LookupResults } from '../components/lookup-results';
import { PublicHeader } from '../components/public-header';
import { SerialLookup } from '../components/serial-lookup';
import { VerificationCard, type VerificationState } from '../components/verification-card';
import { verify, VerifyPanel } from '../components/verify-panel';
import { lookupAll, type LookupRow } from '../lib/lookup';
import type { ReportRequestResult } from '../lib/public-types';

const RequestStep = lazy(() => import('../components/request-step'));
// After a request: with the step-2 chunk's neighbours (the ToggleButtonGroup, the preview's loader).
const RequestOutcome = lazy(() => import('../components/request-outcome'));

function Section({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <Card component="div" data-testid={testId}>
      <CardContent sx={{ p: { xs: 2, sm: 3 }, '&:last-child': { pb: { xs: 2, sm: 3 } } }}>{children}</CardContent>
    </Card>
  );
}

/** The heading of a step: "Step 1" above the step's name, one h2 for a screen reader's list of headings. */
function StepTitle({ step, title, id }: { step: number; title: string; id: string }) {
  const { t } = useTranslation();
  return (
    <Typography id={id} variant="h6" component="h2" sx={{ mb: 2, lineHeight: 1.3 }}>
      <Typography component="span" variant="overline" color="primary" sx={{ display: 'block', lineHeight: 1.6 }}>
        {t('search.step', { step })}
      </Typography>
      {title}
    </Typography>
  );
}

function useSite(): PublicSettings | null {
  const [site, setSite] = useState<PublicSettings | null>(null);
  useEffect(() => {
    // The page works without it (the app's name, no terms text); a failure here must not block a lookup.
    fetchSite().then(setSite, () => undefined);
  }, []);
  return site;
}

function useLinkedReport(id: string | null): VerificationState | null {
  const { t, i18n } = useTranslation();
  const [state, setState] = useState<VerificationState | null>(null);
  useEffect(() => {
    if (id) void verify(() => verifyById(id), t).then(setState);
    // Asked again in another language: the results are worded by the server in the visitor's language.
  }, [id, i18n.language]);
  return state;
}

/**
 * The link's parameters (`?serial=` from a nameplate's QR code, `?report=` from a report's), read after the
 * first render: the first render must equal the prerendered HTML, which knows no query string.
 */
function useLinkParams(): { serial: string | null; report: string | null } | null {
  const [params, setParams] = useState<{ serial: string | null; report: string | null } | null>(null);
  useEffect(() => {
    const query = new URLSearchParams(window.location.search);
    setParams({ serial: query.get('serial'), report: query.get('report') });
  }, []);
  return params;
}

export default function SearchPage() {
  const { t } = useTranslation();
  const params = useLinkParams();
  const reportId = params?.report ?? null;
  const site = useSite();
  const linked = useLinkedReport(reportId);
  const [rows, setRows] = useState<LookupRow[] | null>(null);
  const [outcome, setOutcome] = useState<{ result: ReportRequestResult; email: string } | null>(null);
  const found = rows?.filter((r) => r.found).map((r) => r.serial) ?? [];

  function onLookup(next: LookupRow[]) {
    setOutcome(null);
    setRows(next);
  }

  /** A near miss's suggestion, picked: looked up in place of the serial that was not found. */
  function onPick(serial: string) {
    void lookupAll({ serials: [serial], invalid: [], tooMany: false }).then(
      (picked) =>
        setRows((current) =>
          current && current.length > 1 ? current.map((r) => (r.found ? r : r.suggestion === serial ? picked[0]! : r)) : picked,
        ),
      () => undefined,
    );
    setOutcome(null);
  }

  return (
    <>
      <PublicHeader site={site} />
      <Box
        component="main"
        sx={{ flex: 1, width: '100%', maxWidth: 720, mx: 'auto', px: { xs: 1.5, sm: 3 }, py: { xs: 2, sm: 4 }, display: 'grid', gap: 2 }}
      >
        <Box sx={{ px: { xs: 0.5, sm: 0 } }}>
          <Typography variant="h5" component="h1" sx={{ fontWeight: 700 }}>
            {t('pages.search')}
          </Typography>
          <Typography color="text.secondary">{t('search.intro')}</Typography>
        </Box>
        {reportId && (
          <Section testId="linked-verification">
            <Typography variant="overline" component="h2" color="primary" sx={{ mb: 1 }}>
              {t('search.verify.linkedTitle')}
            </Typography>
            {linked ? <VerificationCard state={linked} /> : <LoadingBar loading />}
          </Section>
        )}
        <Section testId="step-lookup">
          <StepTitle step={1} title={t('search.lookup.title')} id="lookup-heading" />
          <SerialLookup linked={params?.serial ?? null} onResult={onLookup} />
          {rows && (
            <Box sx={{ mt: 3 }}>
              <LookupResults rows={rows} onPick={onPick} />
            </Box>
          )}
        </Section>
        {found.length > 0 && (
          <Section testId="step-request">
            <StepTitle step={2} title={t('search.request.title')} id="request-heading" />
            <Suspense fallback={<LoadingBar loading />}>
              {outcome ? (
                <RequestOutcome result={outcome.result} email={outcome.email} />
              ) : (
                <RequestStep serials={found} site={site} onDone={(result, email) => setOutcome({ result, email })} />
              )}
            </Suspense>
          </Section>
        )}
        <Section testId="verify">
          <VerifyPanel />
        </Section>
      </Box>
    </>
  );
}
