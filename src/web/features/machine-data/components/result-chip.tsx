import LinkOffOutlined from '@mui/icons-material/LinkOffOutlined';
import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import type { TestResult } from '../../../../shared/contract/machine-data';

/** Pass in green, fail in red, with the word (colour is never the only signal). */
export function ResultChip({ result }: { result: TestResult }) {
  const { t } = useTranslation();
  if (result === 'pass') return <Chip size="small" color="success" variant="outlined" label={t('machineScreens.results.pass')} />;
  // A fixed dark red under white text in both themes: the dark theme's lighter error colour fails contrast.
  return <Chip size="small" label={t('machineScreens.results.fail')} sx={{ bgcolor: '#c62828', color: '#fff' }} />;
}

/** Records whose serial no range covers yet: a warning outline and icon, the word in the text colour (contrast). */
export function UnmatchedChip() {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      variant="outlined"
      icon={<LinkOffOutlined />}
      label={t('machineScreens.list.unmatched')}
      sx={{ borderColor: 'warning.main', '& .MuiChip-icon': { color: 'warning.main' } }}
    />
  );
}
