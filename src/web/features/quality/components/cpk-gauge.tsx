/** Cpk on a 0–2 scale with 1.0 and 1.33 marked, and in words (capable, marginal, not capable). */
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { linearScale } from '../../../../shared/chart';
import { CPK_CAPABLE, CPK_MARGINAL } from '../../../../shared/contract/quality';
import { formatNumber } from '../../../components/format';

export function CpkGauge({ cpk }: { cpk: number }) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const width = 220;
  const x = linearScale([0, 2], [8, width - 8]);
  const verdict = cpk >= CPK_CAPABLE ? 'capable' : cpk >= CPK_MARGINAL ? 'marginal' : 'notCapable';
  const color = verdict === 'capable' ? 'success' : verdict === 'marginal' ? 'warning' : 'error';
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }} data-testid="cpk">
      <Chip
        color={color}
        label={`${t('quality.control.cpk')} ${formatNumber(i18n.language, cpk, 2)} · ${t(`quality.control.${verdict}`)}`}
      />
      <svg width={width} height={30} aria-hidden style={{ fontSize: 10, fontFamily: theme.typography.fontFamily }}>
        <rect x={x(0)} y={6} width={x(CPK_MARGINAL) - x(0)} height={8} fill={theme.palette.error.light} />
        <rect x={x(CPK_MARGINAL)} y={6} width={x(CPK_CAPABLE) - x(CPK_MARGINAL)} height={8} fill={theme.palette.warning.light} />
        <rect x={x(CPK_CAPABLE)} y={6} width={x(2) - x(CPK_CAPABLE)} height={8} fill={theme.palette.success.light} />
        {[CPK_MARGINAL, CPK_CAPABLE].map((m) => (
          <g key={m}>
            <line x1={x(m)} x2={x(m)} y1={3} y2={17} stroke={theme.palette.text.primary} />
            <text x={x(m)} y={27} textAnchor="middle" fill={theme.palette.text.secondary}>
              {m}
            </text>
          </g>
        ))}
        <path d={`M ${x(Math.min(2, Math.max(0, cpk)))} 15 l -5 -9 h 10 z`} fill={theme.palette.text.primary} />
      </svg>
    </Box>
  );
}
