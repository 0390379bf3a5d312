/**
 * The DataTable's rows on a phone (below 600 px): one compact card per row, so that nothing important
 * scrolls off sideways. Each column says how it shows (`Column.card`): the title heads the card, the
 * actions sit at its right, key fields are labelled lines under it (a key whose `cardRender` gives null
 * or undefined is left out of that card), the rest is left out. The sort,
 * whose column headers are gone, becomes a select with an order button.
 */
import ArrowDownward from '@mui/icons-material/ArrowDownward';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CardRole, Column } from './data-table';

/** A column's place on the card: declared, or the first column's title and an `actions` column's actions. */
export function cardRole<T>(c: Column<T>, index: number): CardRole {
  if (c.card) return c.card;
  if (c.id === 'actions') return 'actions';
  return index === 0 ? 'title' : 'hidden';
}

export function RowCards<T>({
  columns,
  rows,
  getRowId,
  label,
  pending,
  busy,
  empty,
  skeletons = { count: 3 },
}: {
  columns: Column<T>[];
  rows: T[];
  getRowId: (row: T) => string;
  /** translated name of the list */
  label: string;
  pending: boolean;
  busy: boolean;
  /** what an empty list says, or null */
  empty: ReactNode;
  /** the cards shown while the list loads: how many, and how tall (DataTable's rowHeight) */
  skeletons?: { count: number; height?: number };
}) {
  const { t } = useTranslation();
  const roles = columns.map((c, i) => ({ c, role: cardRole(c, i) }));
  const pick = (role: CardRole) => roles.filter((r) => r.role === role).map((r) => r.c);
  const [titles, keys, actions] = [pick('title'), pick('key'), pick('actions')];
  const show = (c: Column<T>, row: T) => (c.cardRender ?? c.render)(row);

  return (
    <Box
      component="ul"
      aria-label={label}
      aria-busy={busy}
      data-testid="row-cards"
      sx={{ listStyle: 'none', m: 0, px: 2, pb: 1, display: 'grid', gap: 1.5 }}
    >
      {pending &&
        Array.from({ length: skeletons.count }, (_, i) => (
          <Box
            component="li"
            key={`skeleton-${i}`}
            sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5, height: skeletons.height, boxSizing: 'border-box' }}
          >
            <Skeleton variant="text" width="60%" />
            <Skeleton variant="text" />
          </Box>
        ))}
      {!pending && empty && (
        <Box component="li" sx={{ py: 4 }}>
          {empty}
        </Box>
      )}
      {rows.map((row) => (
        <Box
          component="li"
          key={getRowId(row)}
          data-testid="row-card"
          sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5, minWidth: 0 }}
        >
          <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
            <Box sx={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere', '& > * + *': { mt: 0.25 } }}>
              {titles.map((c) => (
                <Box key={c.id}>{show(c, row)}</Box>
              ))}
            </Box>
            {actions.map((c) => (
              <Box key={c.id} sx={{ flexShrink: 0, mt: -0.5, mr: -0.5 }}>
                {show(c, row)}
              </Box>
            ))}
          </Box>
          {keys.length > 0 && (
            <Box
              component="dl"
              sx={{
                display: 'grid',
                gridTemplateColumns: 'minmax(0, max-content) minmax(0, 1fr)',
                columnGap: 1.5,
                rowGap: 0.5,
                m: 0,
                mt: 1,
                fontSize: 14,
                alignItems: 'baseline',
              }}
            >
              {keys.map((c) => {
                const value = show(c, row);
                if (value === null || value === undefined) return null;
                return (
                  <Box key={c.id} sx={{ display: 'contents' }}>
                    <Typography component="dt" variant="body2" color="text.secondary">
                      {t(c.cardLabel ?? c.label)}
                    </Typography>
                    <Box component="dd" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere' }}>
                      {value}
                    </Box>
                  </Box>
                );
              })}
            </Box>
          )}
        </Box>
      ))}
    </Box>
  );
}

/**
 * The sort of a card list: a select of the sortable columns and a button that flips the order. A list whose
 * own order is not a column's (heats: newest added first) offers that order first, as "Default order", so the
 * select names what the cards show and the list can go back to it. The select is the phone's own (a native
 * `<select>`): its picker suits a phone, and MUI's menu select set its state as it mounted, which drew the list
 * a second time in the commit that first showed it (docs/decisions/0078).
 */
export function CardSort<T>({
  columns,
  sort,
  defaultSort,
  order,
  onChange,
}: {
  columns: Column<T>[];
  sort: string;
  /** the list's own order */
  defaultSort?: string;
  order: 'asc' | 'desc';
  onChange: (sort: string, order: 'asc' | 'desc') => void;
}) {
  const { t } = useTranslation();
  const sortable = columns.filter((c) => c.sortable);
  if (sortable.length === 0) return null;
  const ownOrder = defaultSort !== undefined && !sortable.some((c) => c.id === defaultSort);
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 2, pb: 1.5 }}>
      <TextField
        select
        size="small"
        label={t('table.sortBy')}
        value={sort}
        onChange={(e) => onChange(e.target.value, order)}
        sx={{ flex: 1 }}
        id="card-sort"
        slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
      >
        {ownOrder && <option value={defaultSort}>{t('table.defaultOrder')}</option>}
        {sortable.map((c) => (
          <option key={c.id} value={c.id}>
            {t(c.cardLabel ?? c.label)}
          </option>
        ))}
      </TextField>
      <IconButton
        onClick={() => onChange(sort, order === 'asc' ? 'desc' : 'asc')}
        aria-label={t(order === 'asc' ? 'table.sortedAscending' : 'table.sortedDescending')}
      >
        {order === 'asc' ? <ArrowUpward fontSize="small" /> : <ArrowDownward fontSize="small" />}
      </IconButton>
    </Box>
  );
}
