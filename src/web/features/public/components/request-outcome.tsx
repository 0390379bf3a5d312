/**
 * After the request: a heading saying whether every report was sent, each serial's outcome (issued, not available — contact the
 * manufacturer —, or not found) and the preview of an issued report, chosen among several.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadingBar } from '../../../lib/loading-bar';
import type { ReportRequestResult } from '../lib/public-types';
import { MuiIsland } from './mui-island';

const PdfPreview = lazy(() => import('./pdf-preview'));

/**
 * The result's heading: "Request complete" when every serial's report was sent, "Not every report was sent"
 * when one was held or not found beside a sent one, else the server's reason nothing was sent.
 * (The API's own message stays "Search successfully" for clients of the original API.)
 */
function headingText(t: (key: string) => string, result: ReportRequestResult, issued: number): string {
  if (issued === 0) return result.message;
  return issued === result.results.length ? t('search.outcome.success') : t('search.outcome.partial');
}

interface RequestOutcomeProps {
  result: ReportRequestResult;
  email: string;
}

/** Drawn with MUI inside the page's lazy MUI provider (./mui-island). */
export default function RequestOutcome(props: RequestOutcomeProps) {
  return (
    <MuiIsland>
      <Outcome {...props} />
    </MuiIsland>
  );
}

function Outcome({ result, email }: RequestOutcomeProps) {
  const { t } = useTranslation();
  const heading = useRef<HTMLDivElement>(null);
  useEffect(() => heading.current?.focus(), [result]);
  const issued = result.results.filter((r) => r.outcome === 'issued' && r.pdfPath);
  const [shown, setShown] = useState(issued[0]?.serial ?? null);
  const current = issued.find((r) => r.serial === shown) ?? issued[0];

  return (
    <Stack spacing={2} component="section" aria-label={t('search.outcome.title')} data-testid="request-outcome">
      <Alert
        severity={!result.emailQueued ? 'warning' : issued.length < result.results.length ? 'info' : 'success'}
        ref={heading}
        tabIndex={-1}
        role="status"
        data-testid="outcome-message"
      >
        <Typography component="h3" sx={{ fontWeight: 600 }}>
          {headingText(t, result, issued.length)}
        </Typography>
        {issued.length > 0 && t('search.outcome.emailed', { email, count: issued.length })}
      </Alert>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }}>
        {result.results.map((r) => (
          <Box component="li" key={r.serial} data-testid="outcome-row" sx={{ p: 1.25, border: 1, borderColor: 'divider', borderRadius: 1 }}>
            <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
              {r.serial}
              {r.product && (
                <Typography component="span" color="text.secondary" sx={{ fontWeight: 400 }}>
                  {' · '}
                  {r.product}
                </Typography>
              )}
            </Typography>
            <Typography
              variant="body2"
              color={r.outcome === 'issued' ? 'success.main' : r.outcome === 'not-found' ? 'error' : 'text.primary'}
            >
              {t(`search.outcome.${r.outcome}`)}
            </Typography>
          </Box>
        ))}
      </Box>
      {result.contact && (
        <Alert severity="info" data-testid="outcome-contact">
          {t('search.outcome.contact', { contact: result.contact })}
        </Alert>
      )}
      {issued.length > 1 && (
        <ToggleButtonGroup
          exclusive
          size="small"
          value={current?.serial}
          onChange={(_, v: string | null) => v && setShown(v)}
          aria-label={t('search.outcome.choose')}
          sx={{ flexWrap: 'wrap' }}
        >
          {issued.map((r) => (
            <ToggleButton key={r.serial} value={r.serial}>
              {r.serial}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      )}
      {current?.pdfPath && (
        <Suspense fallback={<LoadingBar loading />}>
          <PdfPreview url={current.pdfPath} filename={`test-report-${current.serial}.pdf`} title={current.serial} />
        </Suspense>
      )}
    </Stack>
  );
}
