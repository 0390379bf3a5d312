import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { FLUIDS, PRODUCT_SORTS, type Fluid, type Product } from '../../../../shared/contract/products';
import { DataTable, useListParams, type Column } from '../../../components/data-table';
import { PageHeader } from '../../../components/page-header';
import { useAppAbility } from '../../../lib/ability';
import { notifySuccess } from '../../../lib/toast';
import { productKeys, useDeleteProduct, useProductList } from '../api';
import { exportHref } from '../components/catalogue-list';
import { CsvActions } from '../components/csv-actions';
import { DeleteDialog } from '../components/delete-dialog';
import { formatNumber, withUnit } from '../components/format';
import { LoadMore } from '../components/load-more';

/** Eleven columns: narrower cell padding than the shared table's default, so that they fit at 1440 px. */
const DENSE = {
  '& .MuiTableCell-root': { px: 1.25 },
  '& .MuiTableCell-root:first-of-type': { pl: 2 },
  '& .MuiTableCell-root:last-of-type': { pr: 2 },
} as const;

function isFluid(v: string | null): v is Fluid {
  return (FLUIDS as readonly string[]).includes(v ?? '');
}

export default function ProductsPage() {
  const { t, i18n } = useTranslation();
  const ability = useAppAbility();
  const [params, setParams] = useListParams({ sorts: PRODUCT_SORTS, defaultSort: 'name' });
  const [search, setSearch] = useSearchParams();
  const fluidRaw = search.get('fluid');
  const fluid = isFluid(fluidRaw) ? fluidRaw : undefined;
  const { query: list, more } = useProductList(params, fluid);
  const remove = useDeleteProduct();
  const [deleting, setDeleting] = useState<{ product: Product; open: boolean } | null>(null);
  const lang = i18n.language;
  const mpa = t('products.units.mpa');
  const celsius = t('products.units.celsius');
  const canEdit = ability.can('update', 'Product');
  const canDelete = ability.can('delete', 'Product');

  const columns = useMemo<Column<Product>[]>(() => {
    const cols: Column<Product>[] = [
      {
        id: 'name',
        label: 'products.fields.name',
        sortable: true,
        render: (p) => {
          const details = [p.connection, p.application, p.applicationMedium].filter(Boolean).join(' · ');
          return (
            <Box sx={{ minWidth: 160 }}>
              {canEdit ? (
                <Typography component={RouterLink} to={`/edit-product/${p.id}`} variant="body2" sx={{ fontWeight: 500, color: 'text.primary', textDecoration: 'none', '&:hover': { textDecoration: 'underline' } }}>
                  {p.name}
                </Typography>
              ) : (
                <Typography variant="body2" sx={{ fontWeight: 500 }}>{p.name}</Typography>
              )}
              {details && (
                <Typography variant="caption" color="text.secondary" component="div" title={`${t('products.fields.connection')} · ${t('products.fields.application')} · ${t('products.fields.applicationMedium')}`}>
                  {details}
                </Typography>
              )}
            </Box>
          );
        },
      },
      { id: 'fluid', label: 'products.list.columns.fluid', sortable: true, render: (p) => <Chip size="small" variant="outlined" label={t(`products.fluids.${p.fluid}`)} /> },
      ...(['pressureFc', 'pressureWcb', 'pressureSus'] as const).map((f): Column<Product> => ({
        id: f,
        label: `products.fields.${f}`,
        sortable: true,
        align: 'right',
        render: (p) => <Box component="span" sx={{ whiteSpace: 'nowrap' }}>{withUnit(lang, p[f], mpa)}</Box>,
      })),
      ...(['temperatureMax', 'temperatureMin'] as const).map((f): Column<Product> => ({
        id: f,
        label: `products.list.columns.${f}`,
        sortable: true,
        align: 'right',
        render: (p) => <Box component="span" sx={{ whiteSpace: 'nowrap' }}>{withUnit(lang, p[f], celsius)}</Box>,
      })),
      { id: 'rangeCount', label: 'products.fields.rangeCount', sortable: true, align: 'right', render: (p) => formatNumber(lang, p.rangeCount) },
    ];
    if (canEdit || canDelete) {
      cols.push({
        id: 'actions',
        label: 'app.actions',
        align: 'right',
        render: (p) => (
          <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 0.5 }}>
            {canEdit && (
              <Tooltip title={t('products.editAction')}>
                <IconButton component={RouterLink} to={`/edit-product/${p.id}`} size="small" aria-label={t('products.editNamed', { name: p.name })}>
                  <EditOutlined fontSize="small" />
                </IconButton>
              </Tooltip>
            )}
            {canDelete && (
              <Tooltip title={t('app.delete')}>
                <IconButton size="small" onClick={() => setDeleting({ product: p, open: true })} aria-label={t('products.deleteNamed', { name: p.name })}>
                  <DeleteOutline fontSize="small" />
                </IconButton>
              </Tooltip>
            )}
          </Box>
        ),
      });
    }
    return cols;
  }, [t, lang, mpa, celsius, canEdit, canDelete]);

  const setFluid = (value: string) => {
    setSearch((prev) => {
      const next = new URLSearchParams(prev);
      if (value) next.set('fluid', value);
      else next.delete('fluid');
      next.delete('page');
      return next;
    });
  };


  return (
    <>
      <PageHeader
        title="pages.products"
        actions={
          ability.can('create', 'Product') && (
            <Button component={RouterLink} to="/add-product" variant="contained" startIcon={<Add />}>
              {t('pages.addProduct')}
            </Button>
          )
        }
      />
      <Box sx={DENSE}>
        <DataTable
          columns={columns}
          query={list}
          params={params}
          onParamsChange={setParams}
          getRowId={(p) => p.id}
          label="pages.products"
          searchPlaceholder="products.list.searchPlaceholder"
          emptyText="products.list.empty"
          toolbar={
            <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
              <TextField
                select
                size="small"
                label={t('products.list.fluidFilter')}
                value={fluid ?? ''}
                onChange={(e) => setFluid(e.target.value)}
                sx={{ minWidth: 160 }}
                id="fluid-filter"
              >
                <MenuItem value="">{t('products.list.allFluids')}</MenuItem>
                {FLUIDS.map((f) => (
                  <MenuItem key={f} value={f}>
                    {t(`products.fluids.${f}`)}
                  </MenuItem>
                ))}
              </TextField>
              <CsvActions
                path="/products"
                ns="products"
                exportHref={exportHref('/products', params, { fluid })}
                canImport={ability.can('create', 'Product')}
                fieldLabel={(f) => `products.fields.${f}`}
                invalidate={[productKeys.all]}
              />
            </Box>
          }
        />
      </Box>
      <LoadMore more={more} />
      <DeleteDialog
        open={!!deleting?.open}
        title={t('products.deleteTitle')}
        text={t('products.deleteConfirm', { name: deleting?.product.name ?? '' })}
        onDelete={async () => {
          if (!deleting) return;
          await remove.mutateAsync(deleting.product.id);
          notifySuccess('products.deleted');
        }}
        onClose={() => setDeleting((d) => (d ? { ...d, open: false } : null))}
      />
    </>
  );
}
