/**
 * The action buttons of a list row: Edit (a link) and Delete (opens the delete flow), each with a hint and
 * an accessible name that names the record; more buttons (RowButton) may be passed as children.
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
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RowButton } from './row-button';

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
        <RowButton icon={<EditOutlined fontSize="small" />} hint={t('table.edit')} label={editLabel ?? t('table.edit')} to={editTo} />
      )}
      {onDelete && (
        <RowButton
          icon={<DeleteOutline fontSize="small" />}
          hint={t('app.delete')}
          label={deleteLabel ?? t('app.delete')}
          onClick={onDelete}
        />
      )}
    </Box>
  );
}
