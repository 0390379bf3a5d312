/** Staff accounts (admin): list, add, change role or name, disable, reset password, delete. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { StaffInput, StaffMember, StaffPasswordReset, StaffUpdate } from '../../../shared/contract/staff';
import { toListQuery, type ListParams, type ListResult } from '../../components/data-table';
import { api } from '../../lib/api';

export const staffKeys = {
  all: ['staff'] as const,
  lists: () => [...staffKeys.all, 'list'] as const,
  list: (params: ListParams) => [...staffKeys.lists(), params] as const,
};

export function useStaffList(params: ListParams) {
  return useQuery({
    queryKey: staffKeys.list(params),
    queryFn: ({ signal }) => api.get<ListResult<StaffMember>>('/staff', { query: toListQuery(params), signal }),
    placeholderData: keepPreviousData,
  });
}

function useInvalidate() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: staffKeys.all });
}

export function useAddStaff() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (input: StaffInput) => api.post<StaffMember>('/staff', input), onSuccess: invalidate });
}

export function useUpdateStaff() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, ...input }: StaffUpdate & { id: string }) => api.patch<StaffMember>(`/staff/${id}`, input),
    onSuccess: invalidate,
  });
}

export function useResetStaffPassword() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, ...input }: StaffPasswordReset & { id: string }) => api.post(`/staff/${id}/password`, input),
    onSuccess: invalidate,
  });
}

export function useDeleteStaff() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (id: string) => api.delete(`/staff/${id}`), onSuccess: invalidate });
}
