/** Staff accounts (admin): list, add, change role or name, disable, reset password, delete; an inspector's stamp. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { StaffInput, StaffMember, StaffPasswordReset, StaffUpdate } from '../../../shared/contract/staff';
import { toListQuery, type ListParams, type ListResult } from '../../components/data-table';
import { API_BASE, api } from '../../lib/api';

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

/** The address of a member's stamp image, versioned by its hash so that a new stamp is a new address; null: none. */
export const stampHref = (m: Pick<StaffMember, 'id' | 'stampSha256'>) =>
  m.stampSha256 ? `${API_BASE}/staff/${encodeURIComponent(m.id)}/stamp?v=${m.stampSha256.slice(0, 16)}` : null;

export function useUploadStamp() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, file }: { id: string; file: File }) => {
      const form = new FormData();
      form.append('file', file, file.name);
      return api.put<{ stampSha256: string }>(`/staff/${encodeURIComponent(id)}/stamp`, form);
    },
    onSuccess: invalidate,
  });
}

export function useRemoveStamp() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (id: string) => api.delete(`/staff/${encodeURIComponent(id)}/stamp`), onSuccess: invalidate });
}
