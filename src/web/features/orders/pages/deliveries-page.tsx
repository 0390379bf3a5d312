import Add from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { DELIVERY_SORTS, DELIVERY_STATUSES, type Delivery } from '../../../../shared/contract/orders';
import type { Column } from '../../../components/data-table';
import { formatDate, formatNumber } from '../../../components/format';
import { listPrefetch, ListView, useList, type UseListOptions } from '../../../components/list-kit';
import { useAppAbility } from '../../../lib/ability';
import { notifySuccess } from '../../../lib/toast';
import { deliveryKeys, useAddDelivery } from '../api';
import { DeliveryDialog } from '../components/delivery-dialog';
import { recordLink } from '../components/format';
import { DeliveryStatusChip } from '../components/status-chip';
import { FilterSelect } from '../../../components/filter-select';

type DeliverySort = (typeof DELIVERY_SORTS)[number];

const FILTERS = [
  { url: 'status', parse: (v: string) => ((DELIVERY_STATUSES as readonly string[]).includes(v) ? v : undefined) },
  { url: 'purchaseOrder', api: 'purchaseOrderId' },
] as const;

const LIST: UseListOptions<DeliverySort, 'status' | 'purchaseOrder'> = {
  key: deliveryKeys.lists(),
  path: '/deliveries',
  sorts: DELIVERY_SORTS,
  defaultSort: 'date',
  defaultOrder: 'desc',
  filters: FILTERS,
};

/** The list this address shows, asked for as the screen's code arrives (src/web/app/router.tsx). */
export const prefetch = listPrefetch(LIST);

export default function DeliveriesPage() {
  const { t, i18n } = useTranslation();
  const ability = useAppAbility();
  const navigate = useNavigate();
  const list = useList<Delivery, DeliverySort, 'status' | 'purchaseOrder'>(LIST);
  const add = useAddDelivery();
  const [adding, setAdding] = useState(false);
  const lang = i18n.language;

  const columns = useMemo<Column<Delivery>[]>(
    () => [
      {
        id: 'number',
        label: 'orderScreens.deliveries.fields.number',
        sortable: true,
        card: 'title',
        render: (d) => (
          <Typography component={RouterLink} to={`/deliveries/${d.id}`} variant="body2" sx={recordLink}>
            {d.number}
          </Typography>
        ),
      },
      {
        id: 'purchaseOrder',
        label: 'orderScreens.deliveries.fields.purchaseOrder',
        card: 'key',
        render: (d) => d.purchaseOrderNumber,
      },
      { id: 'customer', label: 'orderScreens.deliveries.fields.customer', sortable: true, card: 'key', render: (d) => d.customerName },
      { id: 'date', label: 'orderScreens.deliveries.fields.date', sortable: true, card: 'key', render: (d) => formatDate(lang, d.date) },
      {
        id: 'status',
        label: 'orderScreens.deliveries.fields.status',
        sortable: true,
        card: 'key',
        render: (d) => <DeliveryStatusChip status={d.status} />,
      },
      {
        id: 'units',
        label: 'orderScreens.deliveries.fields.units',
        align: 'right',
        card: 'key',
        render: (d) => formatNumber(lang, d.unitCount),
      },
    ],
    [lang],
  );

  return (
    <ListView
      list={list}
      columns={columns}
      ns="orderScreens.deliveries"
      title="orderScreens.deliveries.title"
      csv={{ canImport: false, templateHref: null, fieldLabel: (f) => f, invalidate: [deliveryKeys.all] }}
      headerActions={
        ability.can('create', 'Delivery') && (
          <Button variant="contained" startIcon={<Add />} onClick={() => setAdding(true)}>
            {t('orderScreens.deliveries.add')}
          </Button>
        )
      }
      filters={
        <FilterSelect
          id="status-filter"
          label={t('orderScreens.deliveries.list.statusFilter')}
          value={list.filters.status}
          onChange={(v) => list.setFilter('status', v)}
          all={t('orderScreens.deliveries.list.allStatuses')}
          options={DELIVERY_STATUSES.map((s) => ({ value: s, label: t(`orderScreens.deliveries.statuses.${s}`) }))}
          sx={{ minWidth: 160 }}
        />
      }
    >
      {adding && (
        <DeliveryDialog
          title="orderScreens.deliveries.add"
          submitLabel="orderScreens.deliveries.addButton"
          onClose={() => setAdding(false)}
          onSubmit={async (values) => {
            const created = await add.mutateAsync(values);
            setAdding(false);
            notifySuccess('orderScreens.deliveries.added');
            void navigate(`/deliveries/${created.id}`);
          }}
        />
      )}
    </ListView>
  );
}
