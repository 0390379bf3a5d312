/**
 * The list-and-file kit: list state in the URL with filters and the query glue (useList), a whole list
 * screen (ListView), row buttons (RowActions, RowButton), delete with confirmation (useDeleteFlow), LoadMore for
 * "All", and a record's screen with its not-found card (RecordView). CSV lives in ../csv, the table (and
 * its phone cards) in ../data-table. Each file's header says how to use it.
 */
export { DeleteDialog, useDeleteFlow, type DeleteFlowOptions } from './delete-flow';
export { ListView, type ListViewProps } from './list-view';
export { LoadMore } from './load-more';
export { NotFoundCard, RecordView, type RecordViewProps } from './record-view';
export { RowActions, type RowActionsProps } from './row-actions';
export { RowButton, type RowButtonProps } from './row-button';
export { listPrefetch, prefetchList, useList, type FilterSpec, type ListState, type UseListOptions } from './use-list';
export { exportHref, LIST_CHUNK, useListQuery, type ListFilters, type MoreRows } from './use-list-query';
export { recordApi, type RecordKeys } from './record-api';
export { useRecordActions, type RecordActionsOptions } from './record-actions';
