/**
 * A short list on the delivery page (held units, the buyer's links): a table from 600 px, and below it the
 * lists' own cards (components/data-table/row-cards.tsx), so that a phone never scrolls sideways.
 */
import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { usePhone } from '../../../lib/use-phone';
import { useTranslation } from 'react-i18next';
import type { Column } from '../../../components/data-table';
import { RowCards } from '../../../components/data-table/row-cards';

export function RowsTable<T>({
  columns,
  rows,
  getRowId,
  label,
  testId,
}: {
  columns: Column<T>[];
  rows: T[];
  getRowId: (row: T) => string;
  /** i18n key naming the list */
  label: string;
  testId: string;
}) {
  const { t } = useTranslation();
  const cards = usePhone();
  if (cards)
    return (
      // The cards' own side padding is the card content's already.
      <Box data-testid={testId} sx={{ mx: -2 }}>
        <RowCards columns={columns} rows={rows} getRowId={getRowId} label={t(label)} pending={false} busy={false} empty={null} />
      </Box>
    );
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={t(label)} data-testid={testId}>
        <TableHead>
          <TableRow sx={{ '& .MuiTableCell-root': { whiteSpace: 'nowrap', fontWeight: 600 } }}>
            {columns.map((c) => (
              <TableCell key={c.id} align={c.align} sx={{ width: c.width }}>
                {t(c.label)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={getRowId(row)}>
              {columns.map((c) => (
                <TableCell key={c.id} align={c.align}>
                  {c.render(row)}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
