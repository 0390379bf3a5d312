import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { PURCHASE_ORDER_SORTS, type PurchaseOrder } from '../../../../shared/contract/orders';
import type { Column } from '../../../components/data-table';
import { formatDate, formatNumber } from '../../../components/format';
import { listPrefetch, ListView, useList, type UseListOptions, useRecordActions } from '../../../components/list-kit';
import { useAppAbility } from '../../../lib/ability';
import { purchaseOrderKeys, useCustomer, useCustomerOptions, useDeletePurchaseOrder } from '../api';
import { recordLink } from '../components/format';
import { customerOption, RecordPicker, type PickedRecord } from '../components/record-picker';

type PurchaseOrderSort = (typeof PURCHASE_ORDER_SORTS)[number];

/** A CSV column's label in an import's errors: the order's fields, then the item's. */
const csvFieldLabel = (f: string) =>
  ['customer', 'number', 'date', 'documentType'].includes(f)
    ? `orderScreens.purchaseOrders.fields.${f}`
    : ['line', 'product', 'quantity', 'buyerItemCode', 'description', 'tags'].includes(f)
      ? `orderScreens.purchaseOrders.items.${f}`
      : f;

/** `customer` in the address, `customerId` for the API. */
const FILTERS = [{ url: 'customer', api: 'customerId' }] as const;

const LIST: UseListOptions<PurchaseOrderSort, 'customer'> = {
  key: purchaseOrderKeys.lists(),
  path: '/purchase-orders',
  sorts: PURCHASE_ORDER_SORTS,
  defaultSort: 'date',
  defaultOrder: 'desc',
  filters: FILTERS,
};

/** The list this address shows, asked for as the screen's code arrives (src/web/app/router.tsx). */
export const prefetch = listPrefetch(LIST);

export default function PurchaseOrdersPage() {
  const { t, i18n } = useTranslation();
  const ability = useAppAbility();
  const list = useList<PurchaseOrder, PurchaseOrderSort, 'customer'>(LIST);
  const customerId = list.filters.customer;
  const filterCustomer = useCustomer(customerId);
  const [picked, setPicked] = useState<PickedRecord | null>(null);
  const selected = !customerId
    ? null
    : picked?.id === customerId
      ? picked
      : filterCustomer.data
        ? customerOption(filterCustomer.data)
        : null;
  const remove = useDeletePurchaseOrder();
  const canEdit = ability.can('update', 'PurchaseOrder');
  const actions = useRecordActions<PurchaseOrder>({
    ns: 'orderScreens.purchaseOrders',
    name: (o) => ({ number: o.number }),
    editTo: canEdit ? (o) => `/edit-purchase-order/${o.id}` : undefined,
    remove: ability.can('delete', 'PurchaseOrder') ? (o) => remove.mutateAsync(o.id) : undefined,
  });
  const lang = i18n.language;

  const columns = useMemo<Column<PurchaseOrder>[]>(
    () => [
      {
        id: 'number',
        label: 'orderScreens.purchaseOrders.fields.number',
        sortable: true,
        card: 'title',
        render: (o) =>
          canEdit ? (
            <Typography component={RouterLink} to={`/edit-purchase-order/${o.id}`} variant="body2" sx={recordLink}>
              {o.number}
            </Typography>
          ) : (
            <Typography variant="body2" sx={{ fontWeight: 500 }}>
              {o.number}
            </Typography>
          ),
      },
      {
        id: 'customer',
        label: 'orderScreens.purchaseOrders.fields.customer',
        sortable: true,
        card: 'key',
        render: (o) => `${o.customerName} (${o.customerCode})`,
      },
      {
        id: 'date',
        label: 'orderScreens.purchaseOrders.fields.date',
        sortable: true,
        card: 'key',
        render: (o) => formatDate(lang, o.date),
      },
      {
        id: 'documentType',
        label: 'orderScreens.purchaseOrders.fields.documentType',
        card: 'key',
        render: (o) => o.documentType,
      },
      {
        id: 'items',
        label: 'orderScreens.purchaseOrders.list.items',
        align: 'right',
        card: 'key',
        render: (o) => formatNumber(lang, o.items.length),
      },
      {
        id: 'shipped',
        label: 'orderScreens.purchaseOrders.list.shipped',
        align: 'right',
        card: 'key',
        render: (o) => {
          const shipped = o.items.reduce((n, it) => n + it.shipped, 0);
          const ordered = o.items.reduce((n, it) => n + it.quantity, 0);
          return (
            <Typography
              component={RouterLink}
              to={`/deliveries?purchaseOrder=${o.id}`}
              variant="body2"
              sx={{ ...recordLink, fontWeight: 400, whiteSpace: 'nowrap' }}
            >
              {t('orderScreens.purchaseOrders.list.shippedOf', {
                shipped: formatNumber(lang, shipped),
                ordered: formatNumber(lang, ordered),
              })}
            </Typography>
          );
        },
      },
      ...actions.columns,
    ],
    [t, lang, canEdit, actions.columns],
  );

  return (
    <ListView
      list={list}
      columns={columns}
      ns="orderScreens.purchaseOrders"
      title="orderScreens.purchaseOrders.title"
      add={ability.can('create', 'PurchaseOrder') ? { to: '/add-purchase-order', label: 'orderScreens.purchaseOrders.add' } : undefined}
      csv={{
        canImport: ability.can('create', 'PurchaseOrder'),
        templateHref: null,
        fieldLabel: csvFieldLabel,
        invalidate: [purchaseOrderKeys.all],
      }}
      filters={
        <RecordPicker
          id="customer-filter"
          label={t('orderScreens.purchaseOrders.list.customerFilter')}
          value={selected}
          onChange={(v) => {
            setPicked(v);
            list.setFilter('customer', v?.id);
          }}
          useOptions={useCustomerOptions}
          toOption={customerOption}
          size="small"
          sx={{ minWidth: 240, width: { xs: '100%', sm: 'auto' } }}
        />
      }
    >
      {actions.dialog}
    </ListView>
  );
}
