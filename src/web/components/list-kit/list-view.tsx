/**
 * A whole list screen from the kit's pieces: the page header with its Add button, the DataTable (cards
 * below 600 px) with the list's own filters and the CSV buttons in its toolbar, and LoadMore under "All".
 *
 *   const list = useList<Product, ProductSort, 'fluid'>({ … });
 *   const del = useDeleteFlow<Product>({ … });
 *   return (
 *     <ListView list={list} columns={columns} title="pages.products" ns="products"
 *       add={canCreate ? { to: '/add-product', label: 'pages.addProduct' } : undefined}
 *       filters={<FluidFilter … />}
 *       csv={{ canImport, fieldLabel: (f) => `products.fields.${f}`, invalidate: [productKeys.all] }}>
 *       {del.dialog}
 *     </ListView>
 *   );
 *
 * `ns` is the feature's i18n namespace: the search box says `<ns>.list.searchPlaceholder`, an empty list
 * `<ns>.list.empty`, the import `<ns>.import.title`, `.valid` and `.stored` (each can be given instead).
 * Rows are told apart by their `id` unless `getRowId` says otherwise. `children` are rendered after the
 * list (dialogs). Labels are i18n keys.
 */
import Add from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { SxProps, Theme } from '@mui/material/styles';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { CsvActions, type CsvActionsProps, type ImportTexts } from '../csv';
import { DataTable, type Column, type RowHeight } from '../data-table';
import { PageHeader } from '../page-header';
import { LoadMore } from './load-more';
import type { ListState } from './use-list';

export interface ListViewProps<T, S extends string, F extends string> {
  list: ListState<T, S, F>;
  columns: Column<T>[];
  /** default: the row's `id` */
  getRowId?: (row: T) => string;
  /** the feature's i18n namespace (see above) */
  ns?: string;
  /** i18n key of the page title; it also names the table. No header without it. */
  title?: string;
  /** i18n key naming the table when there is no title */
  label?: string;
  /** the header's Add button; leave out when the user may not add */
  add?: { to: string; label: string };
  /** more header buttons */
  headerActions?: ReactNode;
  searchPlaceholder?: string;
  emptyText?: string;
  /** the list's own filter controls, before the CSV buttons */
  filters?: ReactNode;
  /** the CSV buttons; their path and export address come from the list */
  csv?: Omit<CsvActionsProps, 'path' | 'exportHref' | 'texts'> & { texts?: ImportTexts };
  /** styles around the table (e.g. denser cells for many columns) */
  sx?: SxProps<Theme>;
  /** the rows' least height, so that the list loads without moving what is below it (DataTable) */
  rowHeight?: RowHeight;
  children?: ReactNode;
}

export function ListView<T, S extends string, F extends string>({
  list,
  columns,
  getRowId = (row) => (row as { id: string }).id,
  ns,
  title,
  label,
  add,
  headerActions,
  searchPlaceholder,
  emptyText,
  filters,
  csv,
  sx,
  rowHeight,
  children,
}: ListViewProps<T, S, F>) {
  const { t } = useTranslation();
  const texts = csv?.texts ?? { title: `${ns}.import.title`, valid: `${ns}.import.valid`, stored: `${ns}.import.stored` };
  const toolbar =
    filters || csv ? (
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center', width: { xs: '100%', md: 'auto' } }}>
        {filters}
        {csv && <CsvActions path={list.path} exportHref={list.exportHref} {...csv} texts={texts} />}
      </Box>
    ) : undefined;
  return (
    <>
      {title && (
        <PageHeader
          title={title}
          actions={
            (add || headerActions) && (
              <>
                {headerActions}
                {add && (
                  <Button component={RouterLink} to={add.to} variant="contained" startIcon={<Add />}>
                    {t(add.label)}
                  </Button>
                )}
              </>
            )
          }
        />
      )}
      <Box sx={sx}>
        <DataTable
          columns={columns}
          query={list.query}
          params={list.params}
          defaultSort={list.defaultSort}
          onParamsChange={list.setParams}
          getRowId={getRowId}
          label={title ?? label ?? 'table.search'}
          searchPlaceholder={searchPlaceholder ?? (ns && `${ns}.list.searchPlaceholder`)}
          emptyText={emptyText ?? (ns && `${ns}.list.empty`)}
          toolbar={toolbar}
          rowHeight={rowHeight}
        />
      </Box>
      <LoadMore more={list.more} />
      {children}
    </>
  );
}
