/**
 * The one table of every list: server-side pagination (5, 10, 20, 25, 50, 100, All), sorting, a search
 * box, loading, empty and error states. Its state lives in the URL (see useListParams, or useList in
 * components/list-kit, which also holds filters and the query).
 *
 * Below 600 px each row is a card instead (see row-cards.tsx); columns say how they show there with
 * `card`: 'title' (heads the card; default for the first column), 'key' (a labelled line), 'actions'
 * (default for the column with id 'actions') or 'hidden' (default for the others).
 *
 * A list that knows how tall its rows are at their shortest (`rowHeight`) loads without moving what is below
 * it: a page of skeletons that tall holds the place of the rows, and a table row keeps at least that height (a
 * card is as tall as its lines; a page of them fills a phone's screen anyway). See
 * docs/decisions/0068-staff-pages-on-a-phone.md.
 */
import SearchIcon from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { UseQueryResult } from '@tanstack/react-query';
import { usePhone } from '../../lib/use-phone';
import { useDeferredValue, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZES } from '../../../shared/contract/common';
import { formatNumber } from '../format';
import { RetryAlert } from '../retry-alert';
import type { ListParams, ListResult } from './list-params';
import { CardSort, RowCards } from './row-cards';

/** Where a column shows on a phone's card (see the top of this file). */
export type CardRole = 'title' | 'key' | 'actions' | 'hidden';

export interface Column<T> {
  id: string;
  /** i18n key of the header */
  label: string;
  sortable?: boolean;
  align?: 'left' | 'right' | 'center';
  width?: number | string;
  render: (row: T) => ReactNode;
  /** its place on the card below 600 px */
  card?: CardRole;
  /** what the card shows instead of render(row) */
  cardRender?: (row: T) => ReactNode;
  /** i18n key of its label on the card (and in the card's sort select), when the header's is too terse */
  cardLabel?: string;
}

export interface DataTableProps<T, S extends string> {
  columns: Column<T>[];
  query: UseQueryResult<ListResult<T>>;
  params: ListParams<S>;
  /** the list's own order, offered by a phone's card sort when no column sorts by it */
  defaultSort?: S;
  onParamsChange: (patch: Partial<ListParams<S>>, opts?: { replace?: boolean }) => void;
  getRowId: (row: T) => string;
  /** i18n key naming the table for assistive technology */
  label: string;
  /** i18n key of the search box placeholder */
  searchPlaceholder?: string;
  toolbar?: ReactNode;
  /** i18n key shown when the list is empty */
  emptyText?: string;
  /** the height in px of the list's shortest row in the table and as a card (see the top of this file) */
  rowHeight?: RowHeight;
}

export interface RowHeight {
  table: number;
  card: number;
}

/** Skeleton rows while a list loads: a page of them for a list with a row height, else a few. */
const MAX_SKELETONS = 10;
const FEW_SKELETONS = 5;

function skeletonCount(rowsPerPage: number, rowHeight: RowHeight | undefined): number {
  const page = rowsPerPage === ALL ? MAX_SKELETONS : rowsPerPage;
  return Math.min(page, rowHeight ? MAX_SKELETONS : FEW_SKELETONS);
}

const SEARCH_DEBOUNCE_MS = 300;

function lastPageOf(total: number, pageSize: ListParams['pageSize']): number {
  return pageSize === 'all' ? 1 : Math.max(1, Math.ceil(total / pageSize));
}

/** Size and count on one line, the page buttons at the right under them when they do not fit beside. */
const PHONE_PAGINATION = {
  '& .MuiTablePagination-toolbar': { flexWrap: 'wrap', px: 2, rowGap: 0.5 },
  '& .MuiTablePagination-spacer': { display: 'none' },
  // Nested selectors: MUI's own margin on the page buttons is as specific as a single class.
  '& .MuiTablePagination-toolbar .MuiTablePagination-displayedRows, & .MuiTablePagination-toolbar .MuiTablePagination-actions': {
    ml: 'auto',
  },
} as const;
const ALL = -1;

export function DataTable<T, S extends string>({
  columns,
  query,
  params,
  defaultSort,
  onParamsChange,
  getRowId,
  label,
  searchPlaceholder = 'table.search',
  toolbar,
  emptyText = 'table.empty',
  rowHeight,
}: DataTableProps<T, S>) {
  const { t, i18n } = useTranslation();
  const cards = usePhone();
  const [search, setSearch] = useState(params.q);
  const typed = useRef(false);

  // Back/forward changes the URL: the box follows it.
  useEffect(() => {
    if (!typed.current) setSearch(params.q);
  }, [params.q]);

  useEffect(() => {
    if (!typed.current) return undefined;
    const timer = setTimeout(() => {
      typed.current = false;
      if (search.trim() !== params.q.trim()) onParamsChange({ q: search, page: 1 });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search, params.q, onParamsChange]);

  // A page of rows that arrives is drawn as a transition: React yields to the phone every few milliseconds
  // instead of blocking it for one long task; until then the skeletons (or the previous page) stay.
  const data = useDeferredValue(query.data);
  const pending = data === undefined && !query.isError;
  const rows = data?.items ?? [];
  const total = data?.total ?? 0;
  const rowsPerPage = params.pageSize === 'all' ? ALL : params.pageSize;
  const lastPage = lastPageOf(total, params.pageSize);

  // A page beyond the end (rows were deleted, or an old link) goes to the last page. Judged on the answer as it
  // arrives, not on the drawn (deferred) one: until that is drawn it still holds no rows, and every page but
  // the first would look beyond the end.
  const answered = query.data?.total;
  useEffect(() => {
    if (answered === undefined) return;
    const last = lastPageOf(answered, params.pageSize);
    if (params.page > last) onParamsChange({ page: last }, { replace: true });
  }, [answered, params.page, params.pageSize, onParamsChange]);

  const emptyMessage =
    !pending && rows.length === 0 && !query.isError ? (
      <Typography color="text.secondary" sx={{ textAlign: 'center' }} role="status">
        {params.q ? t('table.noMatches', { q: params.q }) : t(emptyText)}
      </Typography>
    ) : null;

  const sortBy = (id: string) => {
    const order = params.sort === id && params.order === 'asc' ? 'desc' : 'asc';
    onParamsChange({ sort: id as S, order, page: 1 });
  };

  return (
    <Card>
      <Box sx={{ display: 'flex', gap: 2, p: 2, flexWrap: 'wrap', alignItems: 'center' }}>
        <TextField
          size="small"
          type="search"
          value={search}
          onChange={(e) => {
            typed.current = true;
            setSearch(e.target.value);
          }}
          placeholder={t(searchPlaceholder)}
          slotProps={{
            htmlInput: { 'aria-label': t('table.searchLabel'), 'data-testid': 'table-search' },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
          sx={{ minWidth: { xs: '100%', sm: 280 } }}
        />
        {/* pushes the toolbar right; on a phone it would only add an empty line */}
        <Box sx={{ flex: 1, display: { xs: 'none', sm: 'block' } }} />
        {toolbar}
      </Box>
      <Box sx={{ height: 4 }}>{query.isFetching && !query.isPending && <LinearProgress aria-label={t('app.loading')} />}</Box>
      {query.isError && <RetryAlert error={query.error} retry={() => void query.refetch()} sx={{ mx: 2, mb: 2 }} />}
      {cards ? (
        <>
          <CardSort
            columns={columns}
            sort={params.sort}
            defaultSort={defaultSort}
            order={params.order}
            onChange={(sort, order) => onParamsChange({ sort: sort as S, order, page: 1 })}
          />
          <RowCards
            columns={columns}
            rows={rows}
            getRowId={getRowId}
            label={t(label)}
            pending={pending}
            busy={query.isFetching}
            empty={emptyMessage}
            skeletons={rowHeight ? { count: skeletonCount(rowsPerPage, rowHeight), height: rowHeight.card } : undefined}
          />
        </>
      ) : (
        <TableContainer>
          <Table aria-label={t(label)} size="medium" aria-busy={query.isFetching}>
            <TableHead>
              <TableRow>
                {columns.map((c) => (
                  <TableCell
                    key={c.id}
                    align={c.align}
                    sx={{ width: c.width, whiteSpace: 'nowrap', fontWeight: 600 }}
                    aria-sort={params.sort === c.id ? (params.order === 'asc' ? 'ascending' : 'descending') : undefined}
                  >
                    {c.sortable ? (
                      <TableSortLabel
                        active={params.sort === c.id}
                        direction={params.sort === c.id ? params.order : 'asc'}
                        onClick={() => sortBy(c.id)}
                      >
                        {t(c.label)}
                      </TableSortLabel>
                    ) : (
                      t(c.label)
                    )}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {pending &&
                Array.from({ length: skeletonCount(rowsPerPage, rowHeight) }, (_, i) => (
                  <TableRow key={`skeleton-${i}`} sx={{ height: rowHeight?.table }}>
                    {columns.map((c) => (
                      <TableCell key={c.id}>
                        <Skeleton variant="text" />
                      </TableCell>
                    ))}
                  </TableRow>
                ))}
              {emptyMessage && (
                <TableRow>
                  <TableCell colSpan={columns.length} sx={{ py: 6 }}>
                    {emptyMessage}
                  </TableCell>
                </TableRow>
              )}
              {rows.map((row) => (
                // A table row's height is its least: a row with more to show grows.
                <TableRow key={getRowId(row)} hover sx={{ height: rowHeight?.table }}>
                  {columns.map((c) => (
                    <TableCell key={c.id} align={c.align}>
                      {c.render(row)}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <TablePagination
        component="div"
        count={total}
        page={Math.min(params.page, lastPage) - 1}
        rowsPerPage={rowsPerPage}
        rowsPerPageOptions={[...PAGE_SIZES, { label: t('table.all'), value: ALL }]}
        onPageChange={(_, p) => onParamsChange({ page: p + 1 })}
        onRowsPerPageChange={(e) => {
          const n = Number(e.target.value);
          onParamsChange({ pageSize: n === ALL ? 'all' : (n as ListParams['pageSize']), page: 1 });
        }}
        labelRowsPerPage={cards ? null : t('table.rowsPerPage')}
        labelDisplayedRows={({ from, to, count }) =>
          data?.totalEstimated
            ? t('table.displayedRowsAbout', {
                from,
                to,
                count: formatNumber(i18n.language, count, 0),
              })
            : t('table.displayedRows', { from, to: count === 0 ? 0 : to, count })
        }
        getItemAriaLabel={(type) => t(`table.${type}Page`)}
        showFirstButton
        showLastButton
        // On a phone the page size is the phone's own select, as the cards' sort is (CardSort): MUI's menu select
        // sets its state as it mounts, one more render in the commit that first draws the list.
        slotProps={{ select: { native: cards, inputProps: { 'aria-label': t('table.rowsPerPage') } } }}
        // On a phone the page buttons wrap under the count rather than scroll out of sight (a long count in
        // Chinese pushes them past 390 px).
        sx={cards ? PHONE_PAGINATION : undefined}
      />
    </Card>
  );
}
