/**
 * The public Test Report Center (docs/product.md §4), designed for a 390 px phone first. Step 1 looks up one
 * serial or up to 20; step 2 (its own chunk, loaded after a successful lookup) asks for the agreement, the
 * address and the report language, and shows the issued report. `?report=<id>` (the QR code's link) opens
 * on the verification of that report; a code or a dropped file can be checked at the bottom.
 * `?delivery=<token>` (a buyer's delivery link) opens on that delivery's certificates, and "I have a
 * delivery" asks for such a link by delivery number and address.
 *
 * Plain elements styled by src/web/public-app/public.css: MUI, emotion and i18next arrive with step 2 or a
 * verification's answer, not with the first load (docs/decisions/0026-public-page-without-mui.md).
 */
import '../../../public-app/public.css';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import type { PublicSettings } from '../../../../shared/contract/settings';
import { useT } from '../lib/public-i18n';
import { fetchSite, verifyById } from '../api';
import { LookupResults } from '../components/lookup-results';
import { ProgressBar } from '../components/plain';
import { PublicHeader } from '../components/public-header';
import { SerialLookup } from '../components/serial-lookup';
import type { VerificationState } from '../components/verification-card';
import { verify, VerificationCard, VerifyPanel } from '../components/verify-panel';
import { lookupAll, type LookupRow } from '../lib/lookup';
import type { ReportRequestResult } from '../lib/public-types';
import { useEarlyTap } from '../lib/use-early-tap';

const RequestStep = lazy(() => import('../components/request-step'));
// After a request: with the step-2 chunk's neighbours (the ToggleButtonGroup, the preview's loader).
const RequestOutcome = lazy(() => import('../components/request-outcome'));
// Only for a buyer's link, and once "I have a delivery" is opened.
const DeliveryView = lazy(() => import('../components/delivery-view'));
const DeliveryRequest = lazy(() => import('../components/delivery-request'));

function Section({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <div className="pp-card" data-testid={testId}>
      {children}
    </div>
  );
}

/** The heading of a step: "Step 1" above the step's name, one h2 for a screen reader's list of headings. */
function StepTitle({ step, title, id }: { step: number; title: string; id: string }) {
  const { t } = useT();
  return (
    <h2 id={id} className="pp-h6 pp-step-title">
      <span className="pp-overline pp-primary">{t('search.step', { step })}</span>
      {title}
    </h2>
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
  const { t, language } = useT();
  const [state, setState] = useState<VerificationState | null>(null);
  useEffect(() => {
    if (id) void verify(() => verifyById(id), t).then(setState);
    // Asked again in another language: the results are worded by the server in the visitor's language.
  }, [id, language]);
  return state;
}

/**
 * The link's parameters (`?serial=` from a nameplate's QR code, `?report=` from a report's), read after the
 * first render: the first render must equal the prerendered HTML, which knows no query string.
 */
interface LinkParams {
  serial: string | null;
  report: string | null;
  delivery: string | null;
}

function useLinkParams(): LinkParams | null {
  const [params, setParams] = useState<LinkParams | null>(null);
  useEffect(() => {
    const query = new URLSearchParams(window.location.search);
    setParams({ serial: query.get('serial'), report: query.get('report'), delivery: query.get('delivery') });
  }, []);
  return params;
}

/** "I have a delivery": a button first, so that the form's proof-of-work starts only when it is wanted. */
function DeliveryRequestSection() {
  const { t } = useT();
  const [open, setOpen] = useState(false);
  // Tapped before the page was hydrated: opened now.
  useEarlyTap('delivery-request', () => setOpen(true));
  return (
    <Section testId="delivery-request">
      <h2 id="delivery-request-heading" className="pp-h6 pp-step-title">
        {t('search.delivery.request.title')}
      </h2>
      <p className="pp-body2 pp-secondary pp-delivery-intro">{t('search.delivery.request.intro')}</p>
      {open ? (
        <Suspense fallback={<ProgressBar loading label={t('app.loading')} />}>
          <DeliveryRequest />
        </Suspense>
      ) : (
        <button
          type="button"
          className="pp-button pp-button-outlined"
          onClick={() => setOpen(true)}
          aria-expanded={false}
          data-early-tap="delivery-request"
        >
          {t('search.delivery.request.open')}
        </button>
      )}
    </Section>
  );
}

export default function SearchPage() {
  const { t } = useT();
  const params = useLinkParams();
  const reportId = params?.report ?? null;
  const deliveryToken = params?.delivery ?? null;
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
      <main className="pp-main">
        <div className="pp-intro">
          <h1 className="pp-h5">{t('pages.search')}</h1>
          <p className="pp-secondary">{t('search.intro')}</p>
        </div>
        {deliveryToken && (
          <Section testId="linked-delivery">
            <h2 className="pp-overline pp-primary pp-linked-title">{t('search.delivery.linkedTitle')}</h2>
            <Suspense fallback={<ProgressBar loading label={t('app.loading')} />}>
              <DeliveryView token={deliveryToken} />
            </Suspense>
          </Section>
        )}
        {reportId && (
          <Section testId="linked-verification">
            <h2 className="pp-overline pp-primary pp-linked-title">{t('search.verify.linkedTitle')}</h2>
            <Suspense fallback={<ProgressBar loading label={t('app.loading')} />}>
              {linked ? <VerificationCard state={linked} /> : <ProgressBar loading label={t('app.loading')} />}
            </Suspense>
          </Section>
        )}
        <Section testId="step-lookup">
          <StepTitle step={1} title={t('search.lookup.title')} id="lookup-heading" />
          <SerialLookup linked={params?.serial ?? null} onResult={onLookup} />
          {rows && <LookupResults rows={rows} onPick={onPick} contact={site?.contact || undefined} />}
        </Section>
        {found.length > 0 && (
          <Section testId="step-request">
            <StepTitle step={2} title={t('search.request.title')} id="request-heading" />
            <Suspense fallback={<ProgressBar loading label={t('app.loading')} />}>
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
        <DeliveryRequestSection />
      </main>
    </>
  );
}
