/**
 * The control chart's choices (product, test type, measure, and the body material when the product has
 * several ratings), its figures (n, mean, σ within, limits, Cpk/Ppk) and the chart. Choices live in the URL.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { TEST_TYPES } from '../../../../shared/contract/machine-data';
import { CONTROL_MEASURES, measureNeedsProduct, PRESSURE_DROP_LIMIT, RATING_MATERIALS } from '../../../../shared/contract/quality';
import { formatNumber } from '../../../components/format';
import { errorMessage } from '../../../lib/errors';
import { useChosenProduct, useProductOptions } from '../../products/api';
import { ProductPicker } from '../../../components/product-picker';
import { testTypeLabel } from '../../../components/record-values';
import { useControlChart } from '../api';
import { ControlChartSvg } from './control-chart';
import { CpkGauge } from './cpk-gauge';
import { RuleBreaks, RuleControls } from './rule-breaks';
import type { QualityParams } from './use-quality-params';

interface Props {
  params: QualityParams;
  set: (patch: Partial<Record<keyof QualityParams, string | undefined>>) => void;
}

function Select({
  id,
  label,
  value,
  options,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  options: { value: string; label: string }[];
  onChange: (v: string) => void;
}) {
  return (
    <TextField select size="small" fullWidth id={id} label={label} value={value} onChange={(e) => onChange(e.target.value)}>
      {options.map((o) => (
        <MenuItem key={o.value} value={o.value}>
          {o.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

export function ControlPanel({ params, set }: Props) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const { product, pick } = useChosenProduct(params.product);
  // The pressure ratio reads every product's tests (of the bench, when one is chosen); the others need one.
  const ready = !!params.product || !measureNeedsProduct(params.measure);
  const query = useControlChart(
    ready
      ? {
          from: params.from,
          to: params.to,
          productId: params.product,
          testType: params.type,
          measure: params.measure,
          material: params.material,
          rules: params.rules,
          machineId: params.bench,
          baselineFrom: params.baselineFrom,
          baselineTo: params.baselineTo,
        }
      : null,
  );
  const c = query.data;
  const measureLabel = t(`quality.control.measures.${params.measure}`);
  const num = (v: number | null, d = 4) => (v === null ? '—' : formatNumber(lang, v, d));
  const unit = c?.unit ? ` ${c.unit}` : '';
  return (
    <>
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: '2fr 1fr 1.4fr 1.4fr' },
          gap: 1.5,
          mb: 2,
        }}
      >
        <ProductPicker
          useOptions={useProductOptions}
          id="quality-product"
          label={t('quality.control.product')}
          value={product}
          size="small"
          onChange={(p) => {
            pick(p);
            set({ product: p?.id, material: undefined });
          }}
        />
        <Select
          id="quality-type"
          label={t('quality.control.testType')}
          value={params.type}
          onChange={(v) => set({ type: v })}
          options={TEST_TYPES.map((v) => ({ value: v, label: testTypeLabel(t, v) }))}
        />
        <Select
          id="quality-measure"
          label={t('quality.control.measure')}
          value={params.measure}
          onChange={(v) => set({ measure: v })}
          options={CONTROL_MEASURES.map((v) => ({ value: v, label: t(`quality.control.measures.${v}`) }))}
        />
        {c && c.materials.length > 1 && params.measure === 'testPressure' && (
          <Select
            id="quality-material"
            label={t('quality.control.material')}
            value={params.material ?? ''}
            onChange={(v) => set({ material: v })}
            options={RATING_MATERIALS.filter((m) => c.materials.includes(m)).map((m) => ({
              value: m,
              label: t(`quality.control.materials.${m}`),
            }))}
          />
        )}
      </Box>
      <RuleControls params={params} set={set} />
      {!ready && <Typography color="text.secondary">{t('quality.control.chooseProduct')}</Typography>}
      {ready && query.isPending && <Skeleton variant="rounded" height={240} />}
      {query.isError && <Alert severity="error">{errorMessage(t, query.error)}</Alert>}
      {c && c.n === 0 && <Typography color="text.secondary">{t('quality.control.empty')}</Typography>}
      {c && c.n > 0 && (
        <>
          <Box
            component="dl"
            sx={{
              display: 'flex',
              flexWrap: 'wrap',
              columnGap: 3,
              rowGap: 0.5,
              m: 0,
              mb: 1.5,
              fontSize: 14,
              '& dt': { color: 'text.secondary' },
              '& dd': { m: 0, fontWeight: 500 },
            }}
            data-testid="control-figures"
          >
            {[
              ['n', formatNumber(lang, c.n, 0)],
              ['mean', num(c.mean) + unit],
              ['sigma', num(c.sigmaWithin)],
              ['ucl', num(c.ucl)],
              ['lcl', num(c.lcl)],
              ...(c.spec
                ? [
                    ['lsl', num(c.spec.lsl)],
                    ['usl', num(c.spec.usl)],
                    ['ppk', num(c.ppk, 2)],
                  ]
                : []),
            ].map(([k, v]) => (
              <Box key={k} sx={{ display: 'flex', gap: 0.75 }}>
                <dt>{t(`quality.control.${k}`)}</dt>
                <dd>{v}</dd>
              </Box>
            ))}
          </Box>
          <Box sx={{ mb: 1.5 }}>
            {c.cpk !== null ? (
              <CpkGauge cpk={c.cpk} />
            ) : (
              <Typography variant="body2" color="text.secondary">
                {params.measure === 'testPressure' && c.materials.length > 1 && !c.spec
                  ? t('quality.control.chooseMaterial')
                  : t('quality.control.noLimits')}
              </Typography>
            )}
          </Box>
          <ControlChartSvg
            chart={c}
            range={params}
            title={t('quality.control.describe', {
              measure: measureLabel,
              n: formatNumber(lang, c.n, 0),
              mean: num(c.mean),
              lcl: num(c.lcl),
              ucl: num(c.ucl),
            })}
          />
          <RuleBreaks chart={c} />
          <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
            {c.spec ? (c.standard ? t('quality.control.limitsStandard', { standard: c.standard }) : t('quality.control.limitsHelp')) : null}{' '}
            {c.limited ? t('quality.control.limited', { count: PRESSURE_DROP_LIMIT }) : null}
          </Typography>
        </>
      )}
    </>
  );
}
