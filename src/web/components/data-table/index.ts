export { DataTable, type Column, type DataTableProps } from './data-table';
export { readListParams, toListQuery, useListParams, type ListParams, type ListResult } from './list-params';
