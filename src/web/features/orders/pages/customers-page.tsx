import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { CUSTOMER_SORTS, type Customer } from '../../../../shared/contract/orders';
import type { Column } from '../../../components/data-table';
import { formatNumber } from '../../../components/format';
import { listPrefetch, ListView, useList, type UseListOptions, useRecordActions } from '../../../components/list-kit';
import { useAppAbility } from '../../../lib/ability';
import { customerKeys, useDeleteCustomer } from '../api';
import { recordLink } from '../components/format';

type CustomerSort = (typeof CUSTOMER_SORTS)[number];

const LIST: UseListOptions<CustomerSort, string> = {
  key: customerKeys.lists(),
  path: '/customers',
  sorts: CUSTOMER_SORTS,
  defaultSort: 'name',
};

/** The list this address shows, asked for as the screen's code arrives (src/web/app/router.tsx). */
export const prefetch = listPrefetch(LIST);

export default function CustomersPage() {
  const { t, i18n } = useTranslation();
  const ability = useAppAbility();
  const list = useList<Customer, CustomerSort>(LIST);
  const remove = useDeleteCustomer();
  const canEdit = ability.can('update', 'Customer');
  const actions = useRecordActions<Customer>({
    ns: 'orderScreens.customers',
    name: (c) => ({ name: c.name }),
    editTo: canEdit ? (c) => `/edit-customer/${c.id}` : undefined,
    remove: ability.can('delete', 'Customer') ? (c) => remove.mutateAsync(c.id) : undefined,
  });
  const lang = i18n.language;

  const columns = useMemo<Column<Customer>[]>(
    () => [
      {
        id: 'name',
        label: 'orderScreens.customers.fields.name',
        sortable: true,
        card: 'title',
        render: (c) =>
          canEdit ? (
            <Typography component={RouterLink} to={`/edit-customer/${c.id}`} variant="body2" sx={recordLink}>
              {c.name}
            </Typography>
          ) : (
            <Typography variant="body2" sx={{ fontWeight: 500 }}>
              {c.name}
            </Typography>
          ),
      },
      { id: 'code', label: 'orderScreens.customers.fields.code', sortable: true, card: 'key', render: (c) => c.code },
      { id: 'country', label: 'orderScreens.customers.fields.country', sortable: true, card: 'key', render: (c) => c.country || '—' },
      {
        id: 'contacts',
        label: 'orderScreens.customers.list.contacts',
        align: 'right',
        card: 'key',
        render: (c) => formatNumber(lang, c.contacts.length),
      },
      {
        id: 'orders',
        label: 'orderScreens.customers.list.orders',
        align: 'right',
        card: 'key',
        render: (c) =>
          c.orderCount > 0 ? (
            <Typography component={RouterLink} to={`/purchase-orders?customer=${c.id}`} variant="body2" sx={recordLink}>
              {formatNumber(lang, c.orderCount)}
            </Typography>
          ) : (
            formatNumber(lang, 0)
          ),
      },
      ...actions.columns,
    ],
    [lang, canEdit, actions.columns],
  );

  return (
    <ListView
      list={list}
      columns={columns}
      ns="orderScreens.customers"
      title="orderScreens.customers.title"
      add={ability.can('create', 'Customer') ? { to: '/add-customer', label: 'orderScreens.customers.add' } : undefined}
      csv={{
        canImport: ability.can('create', 'Customer'),
        templateHref: null,
        fieldLabel: (f) => (t(`orderScreens.customers.fields.${f}`, { defaultValue: '' }) ? `orderScreens.customers.fields.${f}` : f),
        invalidate: [customerKeys.all],
      }}
    >
      {actions.dialog}
    </ListView>
  );
}
