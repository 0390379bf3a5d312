/**
 * The answer of a verification (by the QR code's link, a typed code or a dropped file): genuine with the
 * report's key facts, its results and whether a newer one replaces it, or "this report is not known" and
 * nothing else. Only a dropped file is called unchanged; otherwise the card says how to check the file.
 * Takes the focus when it appears.
 */
import GppBadOutlined from '@mui/icons-material/GppBadOutlined';
import VerifiedOutlined from '@mui/icons-material/VerifiedOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReportVerification } from '../../../../shared/contract/reports';
import { formatDateTime } from '../../../components/format';
import { calendarDate, FactList } from './product-facts';
import { MuiIsland } from './mui-island';
import { VerificationResults } from './verification-results';

export type VerificationState =
  | { kind: 'known'; report: ReportVerification }
  /** a dropped file whose bytes were not issued, but which names a certificate that was: the genuine one */
  | { kind: 'altered'; report: ReportVerification }
  /** `file`: a dropped file that names no certificate issued */
  | { kind: 'unknown'; file?: boolean }
  | { kind: 'error'; message: string };

type Fact = [string, string];

/** The report's key facts: what it is, of which unit, when and by whom it was issued and signed. */
function facts(t: (k: string, values?: Record<string, string>) => string, lang: string, r: ReportVerification): Fact[] {
  const d = r.details;
  const out: Array<[string, string | null | undefined]> = [
    [t('search.verify.number'), r.number],
    [t('search.verify.code'), r.code],
    [t('search.verify.serial'), r.serial],
    [t('search.verify.product'), r.productName],
    [t('search.verify.productionDate'), d?.productionDate ? calendarDate(lang, d.productionDate) : null],
    [t('search.verify.documentType'), t(`search.documentTypes.${r.documentType}`)],
    [
      t('search.verify.standard'),
      d?.standard ? t('search.verify.standardEdition', { name: d.standard.name, edition: d.standard.edition }) : null,
    ],
    [t('search.verify.issuedAt'), formatDateTime(lang, r.issuedAt)],
    [t('search.verify.signer'), d?.signer],
    [t('search.verify.inspector'), d?.inspector],
    [t('search.verify.sha256'), r.sha256],
    [t('search.verify.newerDataLabel'), t(r.newerDataExists ? 'search.verify.yes' : 'search.verify.no')],
  ];
  return out.filter((f): f is Fact => !!f[1]);
}

/** Loaded when there is an answer to show (lazy, with MUI: ./mui-island). */
export default function VerificationCard({ state }: { state: VerificationState }) {
  return (
    <MuiIsland>
      <Card state={state} />
    </MuiIsland>
  );
}

function Card({ state }: { state: VerificationState }) {
  const { t, i18n } = useTranslation();
  const focus = useRef<HTMLDivElement>(null);
  useEffect(() => focus.current?.focus(), [state]);

  if (state.kind === 'error') {
    return (
      <Alert severity="error" role="alert" ref={focus} tabIndex={-1}>
        {state.message}
      </Alert>
    );
  }
  if (state.kind === 'unknown') {
    return (
      <Alert severity="error" icon={<GppBadOutlined />} ref={focus} tabIndex={-1} role="status" data-testid="verification-unknown">
        <Typography component="h3" sx={{ fontWeight: 600 }}>
          {t('search.verify.unknown')}
        </Typography>
        {state.file && t('search.verify.unknownFile')}
      </Alert>
    );
  }
  if (state.kind === 'altered') return <Altered report={state.report} focus={focus} />;
  const r = state.report;
  const d = r.details;
  return (
    <Box data-testid="verification-genuine">
      <Alert severity="success" icon={<VerifiedOutlined />} ref={focus} tabIndex={-1} role="status" sx={{ mb: 2 }}>
        <Typography component="h3" sx={{ fontWeight: 600 }}>
          {t('search.verify.genuine')}
        </Typography>
        {/* Only a file's own hash shows that the file is unchanged; a link or a code shows what was issued. */}
        {r.fileChecked ? t('search.verify.fileUnchanged') : t('search.verify.genuineText')}
      </Alert>
      {r.supersededBy ? (
        <Alert severity="warning" sx={{ mb: 2 }} data-testid="superseded">
          {t(`search.verify.superseded.${r.supersededBy.reason}`, {
            number: r.supersededBy.number,
            date: formatDateTime(i18n.language, r.supersededBy.issuedAt),
          })}{' '}
          <Link href={`/search?report=${encodeURIComponent(r.supersededBy.id)}`}>
            {t('search.verify.superseded.open', { number: r.supersededBy.number })}
          </Link>
        </Alert>
      ) : (
        r.newerDataExists && (
          <Alert severity="info" sx={{ mb: 2 }} data-testid="newer-data">
            {t('search.verify.newerData')}
          </Alert>
        )
      )}
      <FactList items={facts(t, i18n.language, r)} />
      {d && <VerificationResults tests={d.tests} />}
      {d?.statement && (
        <Typography variant="body2" sx={{ mt: 2 }} data-testid="verification-statement">
          {d.statement}
        </Typography>
      )}
      {!r.fileChecked && (
        <Alert severity="info" variant="outlined" sx={{ mt: 2 }} data-testid="check-the-file">
          {t('search.verify.checkTheFile')}
        </Alert>
      )}
    </Box>
  );
}

/**
 * A file changed after it was issued: it is not the certificate, whatever it shows. The certificate it names
 * is said, with the genuine file to open and its facts to compare.
 */
function Altered({ report: r, focus }: { report: ReportVerification; focus: React.RefObject<HTMLDivElement | null> }) {
  const { t, i18n } = useTranslation();
  return (
    <Box data-testid="verification-altered">
      <Alert severity="error" icon={<GppBadOutlined />} ref={focus} tabIndex={-1} role="status" sx={{ mb: 2 }}>
        <Typography component="h3" sx={{ fontWeight: 600 }}>
          {t('search.verify.altered')}
        </Typography>
        {t('search.verify.alteredText', { number: r.number, date: formatDateTime(i18n.language, r.issuedAt) })}{' '}
        <Link href={`/api/v1/public/reports/${encodeURIComponent(r.id)}.pdf`} data-testid="genuine-file">
          {t('search.verify.openGenuine', { number: r.number })}
        </Link>
      </Alert>
      <FactList items={facts(t, i18n.language, r)} />
    </Box>
  );
}
