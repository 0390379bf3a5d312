/** Webhook endpoints and their delivery log (admin): `/api/v1/webhooks`. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  WebhookAttempt,
  WebhookEndpoint,
  WebhookInput,
  WebhookUpdateInput,
  WebhookWithSecret,
} from '../../../shared/contract/webhooks';
import type { ListResult } from '../../components/data-table';
import { api } from '../../lib/api';

export const webhookKeys = {
  all: ['webhooks'] as const,
  list: () => [...webhookKeys.all, 'list'] as const,
  deliveries: (id: string, page: number) => [...webhookKeys.all, 'deliveries', id, page] as const,
};

const path = (id: string, rest = '') => `/webhooks/${encodeURIComponent(id)}${rest}`;

export function useWebhooks() {
  return useQuery({ queryKey: webhookKeys.list(), queryFn: ({ signal }) => api.get<WebhookEndpoint[]>('/webhooks', { signal }) });
}

/** One endpoint's attempts, newest first, 20 a page; refreshed while open so that a test event shows up. */
export function useWebhookDeliveries(id: string, page: number) {
  return useQuery({
    queryKey: webhookKeys.deliveries(id, page),
    queryFn: ({ signal }) => api.get<ListResult<WebhookAttempt>>(path(id, '/deliveries'), { query: { page, pageSize: 20 }, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: 5_000,
  });
}

function useInvalidate() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: webhookKeys.all });
}

export function useCreateWebhook() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (input: WebhookInput) => api.post<WebhookWithSecret>('/webhooks', input), onSuccess: invalidate });
}

export function useUpdateWebhook() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, ...input }: WebhookUpdateInput & { id: string }) => api.patch<WebhookEndpoint>(path(id), input),
    onSuccess: invalidate,
  });
}

export function useDeleteWebhook() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (id: string) => api.delete<{ ok: true }>(path(id)), onSuccess: invalidate });
}

export function useRotateWebhookSecret() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (id: string) => api.post<WebhookWithSecret>(path(id, '/rotate-secret')), onSuccess: invalidate });
}

export function useSendTestEvent() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (id: string) => api.post<{ eventId: string }>(path(id, '/test')), onSuccess: invalidate });
}
