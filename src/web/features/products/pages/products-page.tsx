import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { FLUIDS, PRODUCT_SORTS, type Fluid, type Product, type ProductSort } from '../../../../shared/contract/products';
import type { Column, RowHeight } from '../../../components/data-table';
import { formatNumber } from '../../../components/format';
import { listPrefetch, ListView, useList, type UseListOptions, useRecordActions } from '../../../components/list-kit';
import { useAppAbility } from '../../../lib/ability';
import { productKeys, useDeleteProduct } from '../api';
import { PRESSURE_FIELDS, TEMPERATURE_FIELDS, withUnit } from '../components/format';
import { npsLabel } from '../../../../shared/standards/sizes';
import { sizeText, standardName } from '../../../components/standards/format';
import { FilterSelect } from '../../../components/filter-select';

/** Twelve columns: narrower cell padding than the shared table's default, so that they fit at 1440 px. */
const DENSE = {
  '& .MuiTableCell-root': { px: 1 },
  '& .MuiTableCell-root:first-of-type': { pl: 2 },
  '& .MuiTableCell-root:last-of-type': { pr: 2 },
} as const;

/**
 * A product's row at its shortest, as Chromium draws it: its name over the connection and application line
 * in the table (73 px at 1440), its name and the fluid, rating, temperatures and ranges as a card (202 px at
 * 390). The list's skeletons take these heights, so the page of rows pushes nothing down as it arrives.
 */
const ROW_HEIGHT: RowHeight = { table: 73, card: 202 };

const FILTERS = [{ url: 'fluid', parse: (v: string) => ((FLUIDS as readonly string[]).includes(v) ? v : undefined) }] as const;

const LIST: UseListOptions<ProductSort, 'fluid'> = {
  key: productKeys.lists(),
  path: '/products',
  sorts: PRODUCT_SORTS,
  defaultSort: 'name',
  filters: FILTERS,
};

/** The list this address shows, asked for as the screen's code arrives (src/web/app/router.tsx). */
export const prefetch = listPrefetch(LIST);

export default function ProductsPage() {
  const { t, i18n } = useTranslation();
  const ability = useAppAbility();
  const list = useList<Product, ProductSort, 'fluid'>(LIST);
  const remove = useDeleteProduct();
  const actions = useRecordActions<Product>({
    ns: 'products',
    name: (p) => ({ name: p.name }),
    editTo: ability.can('update', 'Product') ? (p) => `/edit-product/${p.id}` : undefined,
    remove: ability.can('delete', 'Product') ? (p) => remove.mutateAsync(p.id) : undefined,
  });
  const lang = i18n.language;
  const canEdit = ability.can('update', 'Product');

  const columns = useMemo<Column<Product>[]>(() => {
    const mpa = t('products.units.mpa');
    const celsius = t('products.units.celsius');
    const unit = (text: string) => (
      <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
        {text}
      </Box>
    );
    return [
      {
        id: 'name',
        label: 'products.fields.name',
        sortable: true,
        card: 'title',
        render: (p) => {
          const details = [p.connection, p.application, p.applicationMedium].filter(Boolean).join(' · ');
          return (
            <Box sx={{ minWidth: 140 }}>
              {canEdit ? (
                <Typography
                  component={RouterLink}
                  to={`/edit-product/${p.id}`}
                  variant="body2"
                  sx={{ fontWeight: 500, color: 'text.primary', textDecoration: 'none', '&:hover': { textDecoration: 'underline' } }}
                >
                  {p.name}
                </Typography>
              ) : (
                <Typography variant="body2" sx={{ fontWeight: 500 }}>
                  {p.name}
                </Typography>
              )}
              {p.nameZh && (
                <Typography variant="body2" component="div" lang="zh-TW" title={t('products.fields.nameZh')}>
                  {p.nameZh}
                </Typography>
              )}
              {details && (
                <Typography
                  variant="caption"
                  color="text.secondary"
                  component="div"
                  title={`${t('products.fields.connection')} · ${t('products.fields.application')} · ${t('products.fields.applicationMedium')}`}
                >
                  {details}
                </Typography>
              )}
              {/* In the name's cell: twelve columns already fill 1440 px, and a product has a GTIN or not. */}
              {p.gtin && (
                <Typography variant="caption" color="text.secondary" component="div" data-testid="product-gtin">
                  {t('products.fields.gtin')} {p.gtin}
                </Typography>
              )}
              {/* Its closure tests are judged on each side: worth seeing before reading why a unit is held. */}
              {p.bidirectional && (
                <Typography
                  variant="caption"
                  color="text.secondary"
                  component="div"
                  data-testid="product-bidirectional"
                  title={t('products.bidirectionalHint')}
                >
                  {t('products.bidirectionalTag')}
                </Typography>
              )}
            </Box>
          );
        },
      },
      {
        id: 'fluid',
        label: 'products.list.columns.fluid',
        sortable: true,
        card: 'key',
        render: (p) => <Chip size="small" variant="outlined" label={t(`products.fluids.${p.fluid}`)} />,
      },
      ...PRESSURE_FIELDS.map((f): Column<Product> => ({
        id: f,
        label: `products.fields.${f}`,
        sortable: true,
        align: 'right',
        card: 'key',
        render: (p) => unit(withUnit(lang, p[f], mpa)),
        // On a card only the ratings the product has: a line of em dashes tells a phone user nothing.
        cardRender: (p) => (p[f] === null ? null : withUnit(lang, p[f], mpa)),
      })),
      ...TEMPERATURE_FIELDS.map((f): Column<Product> => ({
        id: f,
        label: `products.list.columns.${f}`,
        sortable: true,
        align: 'right',
        card: 'key',
        render: (p) => unit(withUnit(lang, p[f], celsius)),
      })),
      {
        // The standard with the size beside it: what the product is judged by, in one narrow column.
        id: 'testStandard',
        label: 'products.list.columns.standard',
        sortable: true,
        card: 'key',
        render: (p) => (
          <Box data-testid="product-standard">
            <Typography variant="body2" sx={{ whiteSpace: 'nowrap' }}>
              {p.testStandard ? standardName(p.testStandard) : '—'}
            </Typography>
            {p.nominalSize !== null && (
              // DN and NPS may break onto two lines: the column stays narrow enough for twelve at 1440 px.
              <Typography variant="caption" color="text.secondary" component="div">
                <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
                  DN {p.nominalSize}
                </Box>{' '}
                <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
                  ({npsLabel(p.nominalSize)})
                </Box>
              </Typography>
            )}
          </Box>
        ),
        cardRender: (p) =>
          p.testStandard || p.nominalSize !== null
            ? [p.testStandard ? standardName(p.testStandard) : null, p.nominalSize !== null ? sizeText(p.nominalSize) : null]
                .filter(Boolean)
                .join(' · ')
            : null,
      },
      {
        id: 'rangeCount',
        label: 'products.fields.rangeCount',
        sortable: true,
        align: 'right',
        card: 'key',
        render: (p) => formatNumber(lang, p.rangeCount),
      },
      ...actions.columns,
    ];
  }, [t, lang, canEdit, actions.columns]);

  return (
    <ListView
      list={list}
      columns={columns}
      ns="products"
      title="pages.products"
      add={ability.can('create', 'Product') ? { to: '/add-product', label: 'pages.addProduct' } : undefined}
      sx={DENSE}
      rowHeight={ROW_HEIGHT}
      filters={
        <FilterSelect
          id="fluid-filter"
          label={t('products.list.fluidFilter')}
          value={list.filters.fluid}
          onChange={(v) => list.setFilter('fluid', v)}
          all={t('products.list.allFluids')}
          options={FLUIDS.map((f: Fluid) => ({ value: f, label: t(`products.fluids.${f}`) }))}
          sx={{ minWidth: 160 }}
        />
      }
      csv={{ canImport: ability.can('create', 'Product'), fieldLabel: (f) => `products.fields.${f}`, invalidate: [productKeys.all] }}
    >
      {actions.dialog}
    </ListView>
  );
}
