/**
 * The action buttons of a list row: Edit (a link) and Delete (opens the delete flow), each with a tooltip
 * and an accessible name that names the record; more buttons may be passed as children.
 *
 *   { id: 'actions', label: 'app.actions', align: 'right', card: 'actions',
 *     render: (p) => <RowActions editTo={`/edit-product/${p.id}`} editLabel={t('products.editNamed', { name: p.name })}
 *                                onDelete={() => del.ask(p)} deleteLabel={t('products.deleteNamed', { name: p.name })} /> }
 *
 * Leave `editTo` or `onDelete` out when the user may not do it.
 */
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { hint } from '../hint';

export interface RowActionsProps {
  editTo?: string;
  /** the Edit button's accessible name, translated ("Edit VB-1") */
  editLabel?: string;
  onDelete?: () => void;
  /** the Delete button's accessible name, translated */
  deleteLabel?: string;
  children?: ReactNode;
}

export function RowActions({ editTo, editLabel, onDelete, deleteLabel, children }: RowActionsProps) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 0.5 }}>
      {children}
      {editTo && (
        <IconButton {...hint(t('table.edit'))} component={RouterLink} to={editTo} size="small" aria-label={editLabel ?? t('table.edit')}>
          <EditOutlined fontSize="small" />
        </IconButton>
      )}
      {onDelete && (
        <IconButton {...hint(t('app.delete'))} size="small" onClick={onDelete} aria-label={deleteLabel ?? t('app.delete')}>
          <DeleteOutline fontSize="small" />
        </IconButton>
      )}
    </Box>
  );
}
