/**
 * The material catalogue, heats with their mill certificates, a product's parts and a range's heats
 * (docs/decisions/0053-materials-and-heats.md). The heats list itself is useList's (`heatKeys.lists()`).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Heat,
  HeatInput,
  Material,
  MaterialInput,
  PartsInput,
  ProductPart,
  RangeHeats,
  RangeHeatsInput,
} from '../../../shared/contract/materials';
import type { ListResult } from '../../components/data-table';
import { API_BASE, api } from '../../lib/api';

export const materialKeys = { all: ['materials'] as const };
export const heatKeys = {
  all: ['heats'] as const,
  lists: () => [...heatKeys.all, 'list'] as const,
  options: (materialId: string) => [...heatKeys.all, 'options', materialId] as const,
};
export const partKeys = { product: (id: string) => ['products', 'parts', id] as const };
export const rangeHeatKeys = { range: (id: string) => ['serials', 'heats', id] as const };

/** The whole catalogue: a plant keeps tens of grades, so it comes in one answer. */
export function useMaterials() {
  return useQuery({
    queryKey: materialKeys.all,
    queryFn: ({ signal }) => api.get<Material[]>('/materials', { signal }),
    staleTime: 30_000,
  });
}

function useInvalidate(...keys: (readonly unknown[])[]) {
  const qc = useQueryClient();
  return () => Promise.all(keys.map((queryKey) => qc.invalidateQueries({ queryKey })));
}

export function useSaveMaterial() {
  const invalidate = useInvalidate(materialKeys.all, heatKeys.all);
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: MaterialInput }) =>
      id ? api.put<Material>(`/materials/${encodeURIComponent(id)}`, input) : api.post<Material>('/materials', input),
    onSuccess: invalidate,
  });
}

export function useDeleteMaterial() {
  const invalidate = useInvalidate(materialKeys.all);
  return useMutation({ mutationFn: (id: string) => api.delete(`/materials/${encodeURIComponent(id)}`), onSuccess: invalidate });
}

/** The heats of one material, newest first, for a range's heat pickers. */
export function useHeatOptions(materialId: string | undefined) {
  return useQuery({
    queryKey: heatKeys.options(materialId ?? ''),
    queryFn: ({ signal }) =>
      api.get<ListResult<Heat>>('/heats', { query: { materialId, pageSize: 100, sort: 'date', order: 'desc' }, signal }),
    enabled: !!materialId,
  });
}

export function useSaveHeat() {
  const invalidate = useInvalidate(heatKeys.all, materialKeys.all, ['serials', 'heats']);
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: HeatInput }) =>
      id ? api.put<Heat>(`/heats/${encodeURIComponent(id)}`, input) : api.post<Heat>('/heats', input),
    onSuccess: invalidate,
  });
}

export function useDeleteHeat() {
  const invalidate = useInvalidate(heatKeys.all, materialKeys.all);
  return useMutation({ mutationFn: (id: string) => api.delete(`/heats/${encodeURIComponent(id)}`), onSuccess: invalidate });
}

/** The mill certificate's address: opened in its own tab, the browser's PDF viewer shows it. */
export const certificateHref = (heatId: string) => `${API_BASE}/heats/${encodeURIComponent(heatId)}/certificate`;

/** A file as the multipart form the upload routes read (field `file`). */
function fileForm(file: File): FormData {
  const form = new FormData();
  form.append('file', file, file.name);
  return form;
}

export function useUploadCertificate() {
  const invalidate = useInvalidate(heatKeys.all);
  return useMutation({
    mutationFn: ({ id, file }: { id: string; file: File }) => api.put<Heat>(`/heats/${encodeURIComponent(id)}/certificate`, fileForm(file)),
    onSuccess: invalidate,
  });
}

export function useProductParts(productId: string) {
  return useQuery({
    queryKey: partKeys.product(productId),
    queryFn: ({ signal }) => api.get<ProductPart[]>(`/products/${encodeURIComponent(productId)}/parts`, { signal }),
  });
}

export function useSaveProductParts(productId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: PartsInput) => api.put<ProductPart[]>(`/products/${encodeURIComponent(productId)}/parts`, input),
    onSuccess: (parts) => {
      qc.setQueryData(partKeys.product(productId), parts);
      // The product's history shows the change; the ranges' heat pickers follow the parts' materials.
      return Promise.all([
        qc.invalidateQueries({ queryKey: ['products', 'history', productId] }),
        qc.invalidateQueries({ queryKey: ['serials', 'heats'] }),
      ]);
    },
  });
}

export function useRangeHeats(rangeId: string) {
  return useQuery({
    queryKey: rangeHeatKeys.range(rangeId),
    queryFn: ({ signal }) => api.get<RangeHeats>(`/serial-ranges/${encodeURIComponent(rangeId)}/heats`, { signal }),
  });
}

export function useSaveRangeHeats(rangeId: string) {
  const invalidate = useInvalidate(rangeHeatKeys.range(rangeId), heatKeys.all, ['serials']);
  return useMutation({
    mutationFn: (input: RangeHeatsInput) => api.put<RangeHeats>(`/serial-ranges/${encodeURIComponent(rangeId)}/heats`, input),
    onSuccess: invalidate,
  });
}

/** The per-serial exceptions' CSV, as exported (and taken back). */
export const unitHeatsHref = (rangeId: string) => `${API_BASE}/serial-ranges/${encodeURIComponent(rangeId)}/unit-heats.csv`;

export function useImportUnitHeats(rangeId: string) {
  const invalidate = useInvalidate(rangeHeatKeys.range(rangeId), heatKeys.all, ['serials']);
  return useMutation({
    mutationFn: (file: File) =>
      api.post<{ stored: number; removed: number }>(`/serial-ranges/${encodeURIComponent(rangeId)}/unit-heats`, fileForm(file)),
    onSuccess: invalidate,
  });
}
