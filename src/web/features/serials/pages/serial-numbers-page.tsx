import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { SERIAL_RANGE_SORTS, type SerialRange } from '../../../../shared/contract/serials';
import { rangeLabel } from '../../../../shared/serial';
import { DataTable, useListParams, type Column } from '../../../components/data-table';
import { PageHeader } from '../../../components/page-header';
import { useAppAbility } from '../../../lib/ability';
import { notifySuccess } from '../../../lib/toast';
import { productKeys, useProduct } from '../../products/api';
import { exportHref } from '../../products/components/catalogue-list';
import { CsvActions } from '../../products/components/csv-actions';
import { DeleteDialog } from '../../products/components/delete-dialog';
import { formatNumber } from '../../products/components/format';
import { LoadMore } from '../../products/components/load-more';
import { serialKeys, useDeleteSerialRange, useSerialRangeList } from '../api';
import { ProductPicker, type ProductOption } from '../components/product-picker';

const mono = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 13, whiteSpace: 'nowrap' } as const;

export default function SerialNumbersPage() {
  const { t, i18n } = useTranslation();
  const ability = useAppAbility();
  const [params, setParams] = useListParams({ sorts: SERIAL_RANGE_SORTS, defaultSort: 'productName' });
  const [search, setSearch] = useSearchParams();
  const productId = search.get('product') ?? undefined;
  const filterProduct = useProduct(productId);
  const [picked, setPicked] = useState<ProductOption | null>(null);
  const selected: ProductOption | null = productId
    ? picked?.id === productId
      ? picked
      : filterProduct.data
        ? { id: filterProduct.data.id, name: filterProduct.data.name }
        : null
    : null;
  const { query: list, more } = useSerialRangeList(params, productId);
  const remove = useDeleteSerialRange();
  const [deleting, setDeleting] = useState<{ range: SerialRange; open: boolean } | null>(null);
  const lang = i18n.language;
  const canEdit = ability.can('update', 'SerialRange');
  const canDelete = ability.can('delete', 'SerialRange');

  const columns = useMemo<Column<SerialRange>[]>(() => {
    const cols: Column<SerialRange>[] = [
      {
        id: 'productName',
        label: 'serials.fields.productName',
        sortable: true,
        render: (r) => <Typography variant="body2" sx={{ fontWeight: 500, minWidth: 140 }}>{r.productName}</Typography>,
      },
      { id: 'startSerial', label: 'serials.fields.startSerial', sortable: true, render: (r) => <Box component="span" sx={mono}>{r.startSerial}</Box> },
      { id: 'endSerial', label: 'serials.fields.endSerial', sortable: true, render: (r) => <Box component="span" sx={mono}>{r.endSerial}</Box> },
      { id: 'totalUnits', label: 'serials.fields.totalUnits', sortable: true, align: 'right', render: (r) => formatNumber(lang, r.totalUnits, 0) },
      {
        id: 'productionDate',
        label: 'serials.fields.productionDate',
        sortable: true,
        render: (r) => <Box component="span" sx={{ whiteSpace: 'nowrap' }}>{r.productionDate}</Box>,
      },
    ];
    if (canEdit || canDelete) {
      cols.push({
        id: 'actions',
        label: 'app.actions',
        align: 'right',
        render: (r) => {
          const label = rangeLabel(r.startSerial, r.endSerial);
          return (
            <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 0.5 }}>
              {canEdit && (
                <Tooltip title={t('serials.editAction')}>
                  <IconButton component={RouterLink} to={`/edit-serial-number/${r.id}`} size="small" aria-label={t('serials.editNamed', { range: label })}>
                    <EditOutlined fontSize="small" />
                  </IconButton>
                </Tooltip>
              )}
              {canDelete && (
                <Tooltip title={t('app.delete')}>
                  <IconButton size="small" onClick={() => setDeleting({ range: r, open: true })} aria-label={t('serials.deleteNamed', { range: label })}>
                    <DeleteOutline fontSize="small" />
                  </IconButton>
                </Tooltip>
              )}
            </Box>
          );
        },
      });
    }
    return cols;
  }, [t, lang, canEdit, canDelete]);

  const setProductFilter = (p: ProductOption | null) => {
    setPicked(p);
    setSearch((prev) => {
      const next = new URLSearchParams(prev);
      if (p) next.set('product', p.id);
      else next.delete('product');
      next.delete('page');
      return next;
    });
  };

  return (
    <>
      <PageHeader
        title="pages.serialNumbers"
        actions={
          ability.can('create', 'SerialRange') && (
            <Button component={RouterLink} to="/add-serial-number" variant="contained" startIcon={<Add />}>
              {t('pages.addSerialNumber')}
            </Button>
          )
        }
      />
      <DataTable
        columns={columns}
        query={list}
        params={params}
        onParamsChange={setParams}
        getRowId={(r) => r.id}
        label="pages.serialNumbers"
        searchPlaceholder="serials.list.searchPlaceholder"
        emptyText="serials.list.empty"
        toolbar={
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center', width: { xs: '100%', md: 'auto' } }}>
            <Box sx={{ minWidth: 240, flex: { xs: '1 1 100%', sm: '0 0 260px' } }}>
              <ProductPicker id="product-filter" label={t('serials.list.productFilter')} value={selected} onChange={setProductFilter} size="small" />
            </Box>
            <CsvActions
              path="/serial-ranges"
              ns="serials"
              exportHref={exportHref('/serial-ranges', params, { productId })}
              canImport={ability.can('create', 'SerialRange')}
              fieldLabel={(f) => (f === 'product' ? 'serials.fields.productName' : `serials.fields.${f}`)}
              invalidate={[serialKeys.all, productKeys.all]}
            />
          </Box>
        }
      />
      <LoadMore more={more} />
      <DeleteDialog
        open={!!deleting?.open}
        title={t('serials.deleteTitle')}
        text={t('serials.deleteConfirm', { range: deleting ? `${rangeLabel(deleting.range.startSerial, deleting.range.endSerial)} (${deleting.range.productName})` : '' })}
        onDelete={async () => {
          if (!deleting) return;
          await remove.mutateAsync(deleting.range.id);
          notifySuccess('serials.deleted');
        }}
        onClose={() => setDeleting((d) => (d ? { ...d, open: false } : null))}
      />
    </>
  );
}
