/**
 * A whole list screen from the kit's pieces: the page header with its Add button, the DataTable (cards
 * below 600 px) with the list's own filters and the CSV buttons in its toolbar, and LoadMore under "All".
 *
 *   const list = useList<Product, ProductSort, 'fluid'>({ … });
 *   const del = useDeleteFlow<Product>({ … });
 *   return (
 *     <ListView list={list} columns={columns} getRowId={(p) => p.id}
 *       title="pages.products" add={canCreate ? { to: '/add-product', label: 'pages.addProduct' } : undefined}
 *       searchPlaceholder="products.list.searchPlaceholder" emptyText="products.list.empty"
 *       filters={<FluidFilter … />}
 *       csv={{ canImport, texts: { … }, fieldLabel: (f) => `products.fields.${f}`, invalidate: [productKeys.all] }}>
 *       {del.dialog}
 *     </ListView>
 *   );
 *
 * `children` are rendered after the list (dialogs). Labels are i18n keys.
 */
import Add from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { SxProps, Theme } from '@mui/material/styles';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { CsvActions, type CsvActionsProps } from '../csv';
import { DataTable, type Column } from '../data-table';
import { PageHeader } from '../page-header';
import { LoadMore } from './load-more';
import type { ListState } from './use-list';

export interface ListViewProps<T, S extends string, F extends string> {
  list: ListState<T, S, F>;
  columns: Column<T>[];
  getRowId: (row: T) => string;
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
  csv?: Omit<CsvActionsProps, 'path' | 'exportHref'>;
  /** styles around the table (e.g. denser cells for many columns) */
  sx?: SxProps<Theme>;
  children?: ReactNode;
}

export function ListView<T, S extends string, F extends string>({
  list,
  columns,
  getRowId,
  title,
  label,
  add,
  headerActions,
  searchPlaceholder,
  emptyText,
  filters,
  csv,
  sx,
  children,
}: ListViewProps<T, S, F>) {
  const { t } = useTranslation();
  const toolbar =
    filters || csv ? (
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center', width: { xs: '100%', md: 'auto' } }}>
        {filters}
        {csv && <CsvActions path={list.path} exportHref={list.exportHref} {...csv} />}
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
          onParamsChange={list.setParams}
          getRowId={getRowId}
          label={title ?? label ?? 'table.search'}
          searchPlaceholder={searchPlaceholder}
          emptyText={emptyText}
          toolbar={toolbar}
        />
      </Box>
      <LoadMore more={list.more} />
      {children}
    </>
  );
}
