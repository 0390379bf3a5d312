/**
 * The alert inbox (staff, admin): what the test data, the benches and the instruments call for, newest first,
 * filtered by kind, status, product and bench (in the address, so that the dashboard and an email open the
 * same list). Each alert links to what raised it; acknowledging asks for the cause and the action.
 */
import TuneOutlined from '@mui/icons-material/TuneOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { ALERT_KINDS, ALERT_STATUSES, type AlertItem, type AlertKind, type AlertStatus } from '../../../../shared/contract/alerts';
import { formatDateTime } from '../../../components/format';
import { PageHeader } from '../../../components/page-header';
import { ProductPicker } from '../../../components/product-picker';
import { RowList } from '../../../components/row-list';
import { useAppAbility } from '../../../lib/ability';
import { useMachineOptions } from '../../machines/api';
import { useChosenProduct, useProductOptions } from '../../products/api';
import { useAlerts, type AlertFilters } from '../api';
import { AcknowledgeDialog } from '../components/acknowledge-dialog';
import { AlertMailSelect } from '../components/alert-mail-select';
import { ThresholdsDialog } from '../components/thresholds-dialog';
import { FilterSelect } from '../../../components/filter-select';

const UUID = /^[0-9a-f-]{36}$/i;
const oneOf = <T extends string>(list: readonly T[], v: string | null): T | undefined => (list.includes(v as T) ? (v as T) : undefined);

function readFilters(search: URLSearchParams): AlertFilters {
  const productId = search.get('productId');
  const machineId = search.get('machineId');
  return {
    kind: oneOf<AlertKind>(ALERT_KINDS, search.get('kind')),
    status: oneOf<AlertStatus>(ALERT_STATUSES, search.get('status')),
    productId: productId && UUID.test(productId) ? productId : undefined,
    machineId: machineId && UUID.test(machineId) ? machineId : undefined,
  };
}

const LINK_ORDER = ['chart', 'records', 'unit', 'heldUnits', 'machine', 'delivery', 'webhook'] as const;

function AlertRow({ alert, onAcknowledge }: { alert: AlertItem; onAcknowledge: () => void }) {
  const { t, i18n } = useTranslation();
  const open = alert.status === 'open';
  return (
    <>
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 0.5, alignItems: 'flex-start' }}>
        <Chip
          size="small"
          color={open ? 'error' : 'default'}
          variant={open ? 'filled' : 'outlined'}
          label={t(`alerts.kind.${alert.kind}`)}
        />
        <Typography variant="caption" color="text.secondary">
          {formatDateTime(i18n.language, alert.raisedAt)}
        </Typography>
      </Box>
      <Box>
        <Typography variant="body2" data-testid="alert-summary">
          {alert.summary}
        </Typography>
        <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap', mt: 0.5 }}>
          {LINK_ORDER.filter((k) => alert.links[k]).map((k) => (
            <Button
              key={k}
              size="small"
              component={RouterLink}
              to={alert.links[k]!}
              sx={{ minWidth: 0, px: 1 }}
              data-testid={`alert-link-${k}`}
            >
              {t(`alerts.inbox.links.${k}`)}
            </Button>
          ))}
        </Box>
      </Box>
      <Box>
        {alert.acknowledged ? (
          <Box data-testid="alert-acknowledged">
            <Typography variant="caption" color="text.secondary" component="p">
              {t('alerts.inbox.acknowledgedBy', { by: alert.acknowledged.by, at: formatDateTime(i18n.language, alert.acknowledged.at) })}
            </Typography>
            <Typography variant="body2">
              <strong>{t('alerts.inbox.cause')}</strong>
              {t('alerts.colon')}
              {alert.acknowledged.cause}
            </Typography>
            <Typography variant="body2">
              <strong>{t('alerts.inbox.action')}</strong>
              {t('alerts.colon')}
              {alert.acknowledged.action}
            </Typography>
          </Box>
        ) : (
          <Button variant="outlined" size="small" onClick={onAcknowledge} data-testid="acknowledge">
            {t('alerts.inbox.acknowledge')}
          </Button>
        )}
      </Box>
    </>
  );
}

export default function AlertsPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const filters = readFilters(search);
  const set = (patch: Partial<Record<keyof AlertFilters, string | undefined>>) => {
    const next = new URLSearchParams(search);
    for (const [k, v] of Object.entries(patch)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    setSearch(next, { replace: true });
  };
  const canListBenches = useAppAbility().can('read', 'Machine');
  const benches = useMachineOptions(canListBenches);
  const { product, pick } = useChosenProduct(filters.productId);
  const query = useAlerts(filters);
  const [acknowledging, setAcknowledging] = useState<AlertItem | null>(null);
  const [thresholds, setThresholds] = useState(false);
  const canSetThresholds = useAppAbility().can('update', 'Product');
  return (
    <>
      <PageHeader
        title="alerts.title"
        actions={
          <>
            <AlertMailSelect />
            {canSetThresholds && (
              <Button variant="outlined" startIcon={<TuneOutlined />} onClick={() => setThresholds(true)} data-testid="thresholds-button">
                {t('alerts.thresholds.button')}
              </Button>
            )}
          </>
        }
      />
      <Box
        role="group"
        aria-label={t('alerts.title')}
        sx={{ display: 'grid', gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: '1.2fr 1fr 2fr 1.4fr' }, gap: 1.5, mb: 3 }}
      >
        <FilterSelect
          fullWidth
          id="alert-kind"
          label={t('alerts.inbox.kind')}
          value={filters.kind}
          onChange={(v) => set({ kind: v })}
          all={t('alerts.inbox.all')}
          options={ALERT_KINDS.map((k) => ({ value: k, label: t(`alerts.kind.${k}`) }))}
        />
        <FilterSelect
          fullWidth
          id="alert-status"
          label={t('alerts.inbox.status')}
          value={filters.status}
          onChange={(v) => set({ status: v })}
          all={t('alerts.inbox.all')}
          options={ALERT_STATUSES.map((s) => ({ value: s, label: t(`alerts.status.${s}`) }))}
        />
        <Box sx={{ gridColumn: { xs: 'span 2', md: 'auto' } }}>
          <ProductPicker
            useOptions={useProductOptions}
            id="alert-product"
            label={t('alerts.inbox.product')}
            value={product}
            size="small"
            onChange={(p) => {
              pick(p);
              set({ productId: p?.id });
            }}
          />
        </Box>
        {canListBenches && (
          <FilterSelect
            fullWidth
            id="alert-bench"
            label={t('alerts.inbox.bench')}
            value={filters.machineId}
            onChange={(v) => set({ machineId: v })}
            all={t('alerts.inbox.all')}
            options={(benches.data?.items ?? []).map((m) => ({ value: m.id, label: m.name }))}
          />
        )}
      </Box>
      <Card component="section" aria-labelledby="alerts-list-title">
        <CardContent>
          <Typography id="alerts-list-title" variant="h6" component="h2" sx={{ mb: 1.5 }} data-testid="alerts-total">
            {t('alerts.inbox.count', { count: query.data?.pages[0]?.total ?? 0 })}
          </Typography>
          <RowList
            query={query}
            testId="alerts"
            emptyKey="alerts.inbox.empty"
            moreKey="quality.held.more"
            columns="minmax(150px, 0.8fr) 3fr minmax(180px, 1.2fr)"
            skeletonHeight={160}
          >
            {(a) => <AlertRow alert={a} onAcknowledge={() => setAcknowledging(a)} />}
          </RowList>
        </CardContent>
      </Card>
      {thresholds && <ThresholdsDialog onClose={() => setThresholds(false)} />}
      {acknowledging && <AcknowledgeDialog alert={acknowledging} onClose={() => setAcknowledging(null)} />}
    </>
  );
}
