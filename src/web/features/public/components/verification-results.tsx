/**
 * The results a verified report states: each test with what the standard required beside what was
 * measured, and the judgement; worded by the server as the PDF words them, in the visitor's language.
 * Per test a small table of three columns, which fits a 390 px phone.
 */
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { visuallyHidden } from '@mui/utils';
import { useTranslation } from 'react-i18next';
import type { VerificationTest } from '../../../../shared/contract/reports';
import { formatDateTime } from '../../../components/format';

const cell = { py: 0.5, pr: 1, verticalAlign: 'top', textAlign: 'left', borderBottom: 1, borderColor: 'divider' } as const;

function TestResult({ test }: { test: VerificationTest }) {
  const { t, i18n } = useTranslation();
  const rows: Array<[string, string | null, string]> = [
    ['search.verify.results.pressure', test.required?.pressure ?? null, test.measured.pressure],
    ['search.verify.results.hold', test.required?.hold ?? null, test.measured.hold],
    ['search.verify.results.leakage', test.required?.leakage ?? null, test.measured.leakage],
  ];
  const color = test.verdict === 'nonconforming' ? 'error' : test.verdict === 'conforms' ? 'success' : 'default';
  return (
    <Box component="li" sx={{ p: 1.5, border: 1, borderColor: 'divider', borderRadius: 1 }} data-testid="verification-test">
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 1 }}>
        <Typography component="h4" sx={{ fontWeight: 600 }}>
          {test.name}
        </Typography>
        <Chip size="small" color={color} variant="outlined" label={test.verdictText} />
        <Typography variant="body2" color="text.secondary" sx={{ width: { xs: '100%', sm: 'auto' }, ml: { sm: 'auto' } }}>
          {test.medium} · {formatDateTime(i18n.language, test.testedAt)}
        </Typography>
      </Box>
      <Box component="table" sx={{ width: '100%', borderCollapse: 'collapse', fontSize: 14, tableLayout: 'fixed' }}>
        <thead>
          <tr>
            <Box component="th" scope="col" sx={{ ...cell, width: '30%', color: 'text.secondary', fontWeight: 500 }}>
              <Box component="span" sx={visuallyHidden}>
                {t('search.verify.results.quantity')}
              </Box>
            </Box>
            <Box component="th" scope="col" sx={{ ...cell, color: 'text.secondary', fontWeight: 500 }}>
              {t('search.verify.results.required')}
            </Box>
            <Box component="th" scope="col" sx={{ ...cell, color: 'text.secondary', fontWeight: 500 }}>
              {t('search.verify.results.measured')}
            </Box>
          </tr>
        </thead>
        <tbody>
          {rows.map(([label, required, measured]) => (
            <tr key={label}>
              <Box component="th" scope="row" sx={{ ...cell, fontWeight: 500 }}>
                {t(label)}
              </Box>
              <Box component="td" sx={{ ...cell, overflowWrap: 'anywhere' }}>
                {required ?? t('search.verify.results.notJudged')}
              </Box>
              <Box component="td" sx={{ ...cell, overflowWrap: 'anywhere', fontWeight: 600 }}>
                {measured}
              </Box>
            </tr>
          ))}
        </tbody>
      </Box>
    </Box>
  );
}

export function VerificationResults({ tests }: { tests: VerificationTest[] }) {
  const { t } = useTranslation();
  if (tests.length === 0) return null;
  return (
    <Box component="section" aria-labelledby="verification-results" sx={{ mt: 2.5 }}>
      <Typography id="verification-results" component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
        {t('search.verify.results.title')}
      </Typography>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }}>
        {tests.map((test, i) => (
          <TestResult key={`${test.testType}-${i}`} test={test} />
        ))}
      </Box>
    </Box>
  );
}
