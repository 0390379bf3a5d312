/**
 * What step 1 found: for one serial, the product with its ratings or "Serial Number Not Found"; for
 * several, each serial found or not found. The heading takes the focus, so a screen reader reads the answer.
 */
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import HighlightOffOutlined from '@mui/icons-material/HighlightOffOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { LookupRow } from '../lib/lookup';
import { ProductFacts } from './product-facts';

/** "Did you mean BF300-000002?": a button that looks the suggested serial up. */
function Suggestion({ serial, onPick }: { serial: string; onPick?: (serial: string) => void }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ mt: 1 }} data-testid="did-you-mean">
      {t('search.lookup.didYouMean')}{' '}
      <Button size="small" variant="outlined" onClick={() => onPick?.(serial)} sx={{ textTransform: 'none', fontWeight: 700, mx: 0.5 }}>
        {serial}
      </Button>
      {t('search.lookup.didYouMeanEnd')}
    </Box>
  );
}

export function LookupResults({ rows, onPick }: { rows: LookupRow[]; onPick?: (serial: string) => void }) {
  const { t } = useTranslation();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, [rows]);
  const found = rows.filter((r) => r.found).length;
  const single = rows.length === 1 ? rows[0]! : null;

  return (
    <Box component="section" aria-labelledby="lookup-result-heading" data-testid="lookup-results">
      <Typography id="lookup-result-heading" ref={heading} tabIndex={-1} variant="h6" component="h3" sx={{ mb: 1.5, outline: 'none' }}>
        {single
          ? single.found
            ? single.result.product.name
            : t('search.lookup.notFound')
          : t('search.lookup.summary', { found, total: rows.length })}
      </Typography>
      {single?.found && (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
            {t('search.lookup.serialLabel')} <strong>{single.serial}</strong>
          </Typography>
          <ProductFacts result={single.result} />
        </>
      )}
      {single && !single.found && (
        <Alert severity="warning" data-testid="not-found">
          {t('search.lookup.notFoundText', { serial: single.serial })}
          {single.suggestion && <Suggestion serial={single.suggestion} onPick={onPick} />}
        </Alert>
      )}
      {!single && (
        <Stack component="ul" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {rows.map((row) => (
            <Box
              component="li"
              key={row.serial}
              data-testid="lookup-row"
              sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', p: 1.25, border: 1, borderColor: 'divider', borderRadius: 1 }}
            >
              {row.found ? (
                <CheckCircleOutlined color="success" fontSize="small" sx={{ mt: 0.25 }} aria-hidden />
              ) : (
                <HighlightOffOutlined color="error" fontSize="small" sx={{ mt: 0.25 }} aria-hidden />
              )}
              <Box sx={{ minWidth: 0 }}>
                <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{row.serial}</Typography>
                <Typography variant="body2" color={row.found ? 'text.primary' : 'error'}>
                  {row.found ? row.result.product.name : t('search.lookup.notFound')}
                </Typography>
                {!row.found && row.suggestion && <Suggestion serial={row.suggestion} onPick={onPick} />}
              </Box>
            </Box>
          ))}
        </Stack>
      )}
    </Box>
  );
}
