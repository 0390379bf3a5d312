/**
 * The product's verdict on a record beside the bench's result: Conforms (green outline), Nonconforming (the
 * fail chip's dark red), Not assessed (grey outline). A bench pass the product finds nonconforming is the
 * case to catch, so it looks like neither: a dashed red outline, a warning icon and its own words.
 */
import ReportProblemOutlined from '@mui/icons-material/ReportProblemOutlined';
import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import type { Assessment } from '../../../../shared/contract/machine-data';

export function VerdictChip({ assessment }: { assessment: Pick<Assessment, 'verdict' | 'disagreement'> }) {
  const { t } = useTranslation();
  const label = t(`standards.verdicts.${assessment.disagreement ? 'disagreement' : assessment.verdict}`);
  if (assessment.disagreement) {
    return (
      <Chip
        size="small"
        variant="outlined"
        icon={<ReportProblemOutlined />}
        label={label}
        data-testid="verdict-chip"
        data-verdict="disagreement"
        sx={{
          borderColor: 'error.main',
          borderStyle: 'dashed',
          borderWidth: 2,
          fontWeight: 600,
          height: 'auto',
          minHeight: 24,
          '& .MuiChip-label': { whiteSpace: 'normal', py: 0.25 },
          '& .MuiChip-icon': { color: 'error.main' },
        }}
      />
    );
  }
  if (assessment.verdict === 'conforms')
    return <Chip size="small" color="success" variant="outlined" label={label} data-testid="verdict-chip" data-verdict="conforms" />;
  if (assessment.verdict === 'nonconforming') {
    // The same fixed dark red as the fail chip: the dark theme's lighter error colour fails contrast under white.
    return (
      <Chip size="small" label={label} data-testid="verdict-chip" data-verdict="nonconforming" sx={{ bgcolor: '#c62828', color: '#fff' }} />
    );
  }
  return (
    <Chip
      size="small"
      variant="outlined"
      label={label}
      data-testid="verdict-chip"
      data-verdict="not-assessed"
      sx={{ color: 'text.secondary' }}
    />
  );
}
