/**
 * The control chart's run rules: which set is read (Western Electric or Nelson), the bench the chart is
 * split by, and the baseline days the limits come from; then the points that break a rule, by rule, named in
 * the page's language.
 */
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { RULE_SETS, RULES_OF } from '../../../../shared/chart/run-rules';
import type { ControlChart } from '../../../../shared/contract/quality';
import { enumerate, labelled } from '../../../../shared/i18n/punctuation';
import { DateField } from '../../../components/form/date-field';
import { formatDate, formatDateTime, formatNumber } from '../../../components/format';
import { BenchSelect } from './bench-select';
import type { QualityParams } from './use-quality-params';

/** The newest breaks listed under the chart; the rest are counted. */
const LISTED = 8;

export function RuleControls({
  params,
  set,
}: {
  params: QualityParams;
  set: (patch: Partial<Record<keyof QualityParams, string | undefined>>) => void;
}) {
  const { t } = useTranslation();
  // Both baseline days or neither: a day alone waits in the field until the other is chosen.
  const baseline = (name: 'baselineFrom' | 'baselineTo') => (
    <DateField
      size="small"
      fullWidth
      id={`quality-${name}`}
      label={t(`quality.control.${name}`)}
      value={params[name] ?? ''}
      onChange={(v) => set({ [name]: v || undefined })}
      max={name === 'baselineFrom' ? params.baselineTo : undefined}
      min={name === 'baselineTo' ? params.baselineFrom : undefined}
    />
  );
  return (
    <Box
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: '1.4fr 1.4fr 1fr 1fr' },
        gap: 1.5,
        mb: 2,
      }}
      role="group"
      aria-label={t('quality.control.rulesGroup')}
    >
      <Box>
        <TextField
          select
          size="small"
          fullWidth
          id="quality-rules"
          label={t('quality.control.rules')}
          value={params.rules}
          onChange={(e) => set({ rules: e.target.value })}
        >
          {RULE_SETS.map((r) => (
            <MenuItem key={r} value={r}>
              {t(`quality.control.ruleSets.${r}`)}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      <BenchSelect id="quality-bench" value={params.bench} onChange={(v) => set({ bench: v })} />
      {baseline('baselineFrom')}
      {baseline('baselineTo')}
    </Box>
  );
}

export function RuleBreaks({ chart }: { chart: ControlChart }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const limits = chart.baseline
    ? t('quality.control.baselineUsed', {
        from: formatDate(lang, chart.baseline.from),
        to: formatDate(lang, chart.baseline.to),
        n: formatNumber(lang, chart.baseline.n, 0),
      })
    : t('quality.control.baselineNone');
  const newest = [...chart.breaks].reverse().slice(0, LISTED);
  return (
    <Box sx={{ mt: 1.5 }} data-testid="rule-breaks">
      <Typography variant="body2" color="text.secondary">
        {limits}
      </Typography>
      <Typography variant="body2" sx={{ mt: 0.5, fontWeight: 500 }}>
        {chart.breaks.length === 0
          ? t('quality.control.noBreaks', { set: t(`quality.control.ruleSets.${chart.rules}`) })
          : t('quality.control.breaks', { count: chart.breaks.length, set: t(`quality.control.ruleSets.${chart.rules}`) })}
      </Typography>
      {newest.length > 0 && (
        <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2.5, fontSize: 14 }}>
          {newest.map((b) => {
            const p = chart.points[b.index]!;
            return (
              <li key={b.index} data-testid="rule-break">
                {labelled(
                  lang,
                  `${formatDateTime(lang, p.at)} · ${formatNumber(lang, p.mean, 4)}${chart.unit ? ` ${chart.unit}` : ''}`,
                  enumerate(
                    lang,
                    b.rules.map((r) => t(`quality.control.rule.${r}`)),
                  ),
                )}
              </li>
            );
          })}
        </Box>
      )}
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }}>
        {t('quality.control.rulesRead', {
          rules: enumerate(
            lang,
            RULES_OF[chart.rules].map((r) => t(`quality.control.rule.${r}`)),
          ),
        })}
      </Typography>
    </Box>
  );
}
