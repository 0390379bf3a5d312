/**
 * The Edit and Delete of a list's rows in one: the actions column (RowActions, at the right of a row
 * and of a phone's card) and the delete confirmation (useDeleteFlow). Texts come from the feature's
 * i18n namespace: `<ns>.editNamed`, `<ns>.deleteNamed`, `<ns>.deleteTitle`, `<ns>.deleteConfirm` and
 * `<ns>.deleted`, interpolated with `name(row)` (and `confirm(row)` for the question, when it says more).
 *
 *   const actions = useRecordActions<Product>({
 *     ns: 'products',
 *     name: (p) => ({ name: p.name }),
 *     editTo: canEdit ? (p) => `/edit-product/${p.id}` : undefined,
 *     remove: canDelete ? (p) => remove.mutateAsync(p.id) : undefined,
 *   });
 *   const columns = useMemo(() => [...myColumns, ...actions.columns], [..., actions.columns]);
 *   … render {actions.dialog} once (ListView's children).
 *
 * `columns` is empty when the user may neither edit nor delete.
 */
import { useMemo, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Column } from '../data-table';
import { useDeleteFlow } from './delete-flow';
import { RowActions } from './row-actions';

export interface RecordActionsOptions<T> {
  ns: string;
  name: (row: T) => Record<string, string>;
  confirm?: (row: T) => Record<string, string>;
  /** the row's edit screen; leave out when the user may not edit */
  editTo?: (row: T) => string;
  /** deletes the row; leave out when the user may not delete */
  remove?: (row: T) => Promise<unknown>;
}

export function useRecordActions<T>(options: RecordActionsOptions<T>): { columns: Column<T>[]; dialog: ReactNode; ask: (row: T) => void } {
  const { t } = useTranslation();
  // The callbacks are usually inline: the latest are read through a ref so that the column stays the same.
  const latest = useRef(options);
  latest.current = options;
  const { ns } = options;
  const canEdit = !!options.editTo;
  const canDelete = !!options.remove;
  const del = useDeleteFlow<T>({
    title: `${ns}.deleteTitle`,
    text: (row) => t(`${ns}.deleteConfirm`, (latest.current.confirm ?? latest.current.name)(row)),
    remove: (row) => latest.current.remove?.(row) ?? Promise.resolve(),
    done: `${ns}.deleted`,
  });
  const ask = del.ask;

  const columns = useMemo<Column<T>[]>(() => {
    if (!canEdit && !canDelete) return [];
    return [
      {
        id: 'actions',
        label: 'app.actions',
        align: 'right',
        card: 'actions',
        render: (row) => {
          const { name, editTo } = latest.current;
          return (
            <RowActions
              editTo={canEdit ? editTo?.(row) : undefined}
              editLabel={t(`${ns}.editNamed`, name(row))}
              onDelete={canDelete ? () => ask(row) : undefined}
              deleteLabel={t(`${ns}.deleteNamed`, name(row))}
            />
          );
        },
      },
    ];
  }, [t, ns, canEdit, canDelete, ask]);

  return { columns, dialog: del.dialog, ask };
}
