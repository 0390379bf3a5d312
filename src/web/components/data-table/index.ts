export { DataTable, type CardRole, type Column, type DataTableProps, type RowHeight } from './data-table';
export { readListParams, toListQuery, useListParams, type ListParams, type ListParamsOptions, type ListResult } from './list-params';
