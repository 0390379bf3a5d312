/**
 * A whole list already in hand (the material catalogue) shown through the shared DataTable: the search
 * box, sort and page are applied here, and the answer has the shape a server-paged list query has.
 */
import type { UseQueryResult } from '@tanstack/react-query';
import type { ListParams, ListResult } from '../../../components/data-table';

export function pagedLocally<T>(
  query: UseQueryResult<T[]>,
  params: ListParams,
  how: { text: (row: T) => string; compare: (a: T, b: T) => number },
): UseQueryResult<ListResult<T>> {
  if (!query.data) return query as unknown as UseQueryResult<ListResult<T>>;
  const needle = params.q.trim().toLocaleLowerCase();
  const found = needle ? query.data.filter((row) => how.text(row).toLocaleLowerCase().includes(needle)) : [...query.data];
  found.sort((a, b) => (params.order === 'desc' ? -how.compare(a, b) : how.compare(a, b)));
  const items = params.pageSize === 'all' ? found : found.slice((params.page - 1) * params.pageSize, params.page * params.pageSize);
  return { ...query, data: { items, total: found.length } } as unknown as UseQueryResult<ListResult<T>>;
}
