/** Quality alerts (staff, admin): the inbox a page at a time, the open count, the acknowledgement. */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AcknowledgeInput,
  AlertItem,
  AlertKind,
  AlertMailChoice,
  AlertStatus,
  Thresholds,
  ThresholdsInput,
} from '../../../shared/contract/alerts';
import { api } from '../../lib/api';

export interface AlertFilters {
  kind?: AlertKind;
  status?: AlertStatus;
  productId?: string;
  machineId?: string;
}

const PAGE = 20;
const keys = {
  all: ['alerts'] as const,
  list: (f: AlertFilters) => [...keys.all, 'list', f] as const,
  count: () => [...keys.all, 'count'] as const,
  mail: () => [...keys.all, 'mail'] as const,
};

export function useAlerts(f: AlertFilters) {
  return useInfiniteQuery({
    queryKey: keys.list(f),
    initialPageParam: 1,
    queryFn: ({ signal, pageParam }) =>
      api.get<{ items: AlertItem[]; total: number }>('/alerts', { signal, query: { ...f, page: pageParam, pageSize: PAGE } }),
    getNextPageParam: (last, pages) => (pages.length * PAGE < last.total ? pages.length + 1 : undefined),
  });
}

/** Open alerts, for the dashboard and the menu. */
export function useOpenAlertCount(enabled = true) {
  return useQuery({
    enabled,
    queryKey: keys.count(),
    queryFn: ({ signal }) => api.get<{ open: number }>('/alerts/count', { signal }),
    refetchInterval: 60_000,
  });
}

export function useAcknowledgeAlert() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: AcknowledgeInput }) =>
      api.post<AlertItem>(`/alerts/${encodeURIComponent(id)}/acknowledge`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.all }),
  });
}

/** The signed-in user's choice of alert email, and changing it. */
export function useAlertMail() {
  return useQuery({
    queryKey: keys.mail(),
    queryFn: ({ signal }) => api.get<{ alertMail: AlertMailChoice }>('/alerts/email', { signal }),
  });
}

export function useSetAlertMail() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (alertMail: AlertMailChoice) => api.put<{ alertMail: AlertMailChoice }>('/alerts/email', { alertMail }),
    onSuccess: (data) => client.setQueryData(keys.mail(), data),
  });
}

/** A product's or a bench's alert thresholds (`/products/{id}/alert-thresholds`, `/machines/{id}/…`). */
export type ThresholdTarget = { kind: 'products' | 'machines'; id: string };
const thresholdsPath = (t: ThresholdTarget) => `/${t.kind}/${encodeURIComponent(t.id)}/alert-thresholds`;

export function useThresholds(target: ThresholdTarget | null) {
  return useQuery({
    enabled: target !== null,
    queryKey: [...keys.all, 'thresholds', target?.kind, target?.id] as const,
    queryFn: ({ signal }) => api.get<Thresholds>(thresholdsPath(target!), { signal }),
  });
}

export function useSetThresholds() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ target, body }: { target: ThresholdTarget; body: ThresholdsInput }) => api.put<Thresholds>(thresholdsPath(target), body),
    onSuccess: (data, { target }) => client.setQueryData([...keys.all, 'thresholds', target.kind, target.id], data),
  });
}
