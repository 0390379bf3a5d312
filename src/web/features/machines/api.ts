/** Test benches and their API keys (admin): list, create, rename, disable/enable, rotate the key, delete. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ImportGrants, Machine, MachineDeleteOutcome, MachineUpdateInput, MachineWithKey } from '../../../shared/contract/machines';
import type { CalibrationValues, Instrument, InstrumentCreateValues } from '../../../shared/contract/instruments';
import { toListQuery, type ListParams, type ListResult } from '../../components/data-table';
import { api } from '../../lib/api';

export const machineKeys = {
  all: ['machines'] as const,
  lists: () => [...machineKeys.all, 'list'] as const,
  list: (params: ListParams) => [...machineKeys.lists(), params] as const,
  /** every bench, for the Machine Data screen's bench filter */
  options: () => [...machineKeys.all, 'options'] as const,
  grants: (id: string) => [...machineKeys.all, 'grants', id] as const,
};

/** Who may import records in the bench's name (admins). */
export function useImportGrants(id: string) {
  return useQuery({
    queryKey: machineKeys.grants(id),
    queryFn: ({ signal }) => api.get<ImportGrants>(`/machines/${encodeURIComponent(id)}/import-grants`, { signal }),
  });
}

export function useSaveImportGrants(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (userIds: string[]) => api.put<ImportGrants>(`/machines/${encodeURIComponent(id)}/import-grants`, { userIds }),
    onSuccess: () => qc.invalidateQueries({ queryKey: machineKeys.grants(id) }),
  });
}

export function useMachineList(params: ListParams) {
  return useQuery({
    queryKey: machineKeys.list(params),
    queryFn: ({ signal }) => api.get<ListResult<Machine>>('/machines', { query: toListQuery(params), signal }),
    placeholderData: keepPreviousData,
  });
}

/** All benches by name (a plant has a handful to a few hundred), for pickers; admins only. */
export function useMachineOptions(enabled = true) {
  return useQuery({
    queryKey: machineKeys.options(),
    queryFn: ({ signal }) => api.get<ListResult<Machine>>('/machines', { query: { pageSize: 'all', sort: 'name' }, signal }),
    enabled,
    staleTime: 60_000,
  });
}

function useInvalidate() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: machineKeys.all });
}

export function useCreateMachine() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (name: string) => api.post<MachineWithKey>('/machines', { name }), onSuccess: invalidate });
}

export function useUpdateMachine() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, ...input }: MachineUpdateInput & { id: string }) => api.patch<Machine>(`/machines/${encodeURIComponent(id)}`, input),
    onSuccess: invalidate,
  });
}

export function useRotateMachineKey() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: string) => api.post<MachineWithKey>(`/machines/${encodeURIComponent(id)}/rotate-key`, {}),
    onSuccess: invalidate,
  });
}

export function useDeleteMachine() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: string) => api.delete<MachineDeleteOutcome>(`/machines/${encodeURIComponent(id)}`),
    onSuccess: invalidate,
  });
}

/** A bench's instruments with their calibrations (admins). */
export function useInstruments(machineId: string) {
  return useQuery({
    queryKey: [...machineKeys.all, 'instruments', machineId] as const,
    queryFn: ({ signal }) => api.get<Instrument[]>(`/machines/${encodeURIComponent(machineId)}/instruments`, { signal }),
  });
}

function useInvalidateInstruments(machineId: string) {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: [...machineKeys.all, 'instruments', machineId] });
}

export function useCreateInstrument(machineId: string) {
  const invalidate = useInvalidateInstruments(machineId);
  return useMutation({
    mutationFn: (input: InstrumentCreateValues) => api.post<Instrument>(`/machines/${encodeURIComponent(machineId)}/instruments`, input),
    onSuccess: invalidate,
  });
}

/** A recalibration: one more calibration, the earlier ones kept. */
export function useAddCalibration(machineId: string) {
  const invalidate = useInvalidateInstruments(machineId);
  return useMutation({
    mutationFn: ({ id, ...input }: CalibrationValues & { id: string }) =>
      api.post<Instrument>(`/machines/${encodeURIComponent(machineId)}/instruments/${encodeURIComponent(id)}/calibrations`, input),
    onSuccess: invalidate,
  });
}
