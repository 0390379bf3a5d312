/** Test records (staff, admin): the list with its filters, one record with its samples, a unit's history. */
import { useQuery } from '@tanstack/react-query';
import {
  TEST_RECORD_SORTS,
  TEST_RESULTS,
  TEST_TYPES,
  type TestRecord,
  type TestRecordDetail,
  type TestRecordSort,
  type UnitHistory,
} from '../../../shared/contract/machine-data';
import { VERDICTS } from '../../../shared/standards/reasons';
import { useList, type FilterSpec, type UseListOptions } from '../../components/list-kit';
import { api } from '../../lib/api';

export const machineDataKeys = {
  all: ['machine-data'] as const,
  lists: () => [...machineDataKeys.all, 'list'] as const,
  detail: (id: string) => [...machineDataKeys.all, 'detail', id] as const,
  unit: (serial: string) => [...machineDataKeys.all, 'unit', serial] as const,
};

export function useTestRecord(id: string | undefined) {
  return useQuery({
    queryKey: machineDataKeys.detail(id ?? ''),
    queryFn: ({ signal }) => api.get<TestRecordDetail>(`/machine-data/${encodeURIComponent(id ?? '')}`, { signal }),
    enabled: !!id,
  });
}

export function useUnitHistory(serial: string | undefined) {
  return useQuery({
    queryKey: machineDataKeys.unit(serial ?? ''),
    queryFn: ({ signal }) => api.get<UnitHistory>(`/machine-data/units/${encodeURIComponent(serial ?? '')}`, { signal }),
    enabled: !!serial,
  });
}

export const RECORD_FILTERS = ['product', 'result', 'verdict', 'type', 'bench', 'matched', 'from', 'to'] as const;
export type RecordFilter = (typeof RECORD_FILTERS)[number];

/** The product's verdict, and `disagreement`: a bench pass the product finds nonconforming. */
export const RECORD_VERDICT_FILTERS = [...VERDICTS, 'disagreement'] as const;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const oneOf = (values: readonly string[]) => (raw: string) => (values.includes(raw) ? raw : undefined);
const id = (raw: string) => (/^[\w-]{1,100}$/.test(raw) ? raw : undefined);

/** The list's filters: short names in the address, the API's names in the request. */
export const RECORD_FILTER_SPECS: readonly FilterSpec<RecordFilter>[] = [
  { url: 'product', api: 'productId', parse: id },
  { url: 'result', parse: oneOf(TEST_RESULTS) },
  { url: 'verdict', parse: oneOf(RECORD_VERDICT_FILTERS) },
  { url: 'type', api: 'testType', parse: oneOf(TEST_TYPES) },
  { url: 'bench', api: 'machineId', parse: id },
  { url: 'matched', parse: oneOf(['true', 'false']) },
  { url: 'from', api: 'testedFrom', parse: (raw) => (DATE.test(raw) ? raw : undefined) },
  { url: 'to', api: 'testedTo', parse: (raw) => (DATE.test(raw) ? raw : undefined) },
];

/** The list's query as its screen reads it and its route prefetches it. */
export const TEST_RECORD_LIST: UseListOptions<TestRecordSort, RecordFilter> = {
  key: machineDataKeys.lists(),
  path: '/machine-data',
  sorts: TEST_RECORD_SORTS,
  defaultSort: 'testedAt',
  defaultOrder: 'desc',
  filters: RECORD_FILTER_SPECS,
};

/** The Machine Data list: search (a serial), filters, page, size and sort in the URL; newest test first. */
export function useTestRecordList() {
  return useList<TestRecord, TestRecordSort, RecordFilter>(TEST_RECORD_LIST);
}
