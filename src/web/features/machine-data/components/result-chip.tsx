import LinkOffOutlined from '@mui/icons-material/LinkOffOutlined';
import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import type { TestResult } from '../../../../shared/contract/machine-data';

/** Pass in green, fail in red, with the word (colour is never the only signal). */
export function ResultChip({ result }: { result: TestResult }) {
  const { t } = useTranslation();
  return <Chip size="small" color={result === 'pass' ? 'success' : 'error'} variant={result === 'pass' ? 'outlined' : 'filled'} label={t(`machineScreens.results.${result}`)} />;
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
