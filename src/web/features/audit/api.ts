/** The audit trail (admin): entries filtered by user, record and days; the users that appear in it. */
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { AuditEntry } from '../../../shared/contract/audit';
import { api } from '../../lib/api';

export interface AuditFilters {
  actor?: string;
  entity?: string;
  entityId?: string;
  from?: string;
  to?: string;
}

export const auditKeys = {
  all: ['audit-log'] as const,
  list: (f: AuditFilters) => [...auditKeys.all, 'list', f] as const,
  actors: () => [...auditKeys.all, 'actors'] as const,
};

export const AUDIT_PAGE = 20;

export function useAuditLog(filters: AuditFilters) {
  return useInfiniteQuery({
    queryKey: auditKeys.list(filters),
    initialPageParam: 1,
    queryFn: ({ signal, pageParam }) =>
      api.get<{ items: AuditEntry[]; total: number }>('/audit-log', {
        signal,
        query: { ...filters, page: pageParam, pageSize: AUDIT_PAGE },
      }),
    getNextPageParam: (last, pages) => (pages.length * AUDIT_PAGE < last.total ? pages.length + 1 : undefined),
    placeholderData: keepPreviousData,
  });
}

export function useAuditActors() {
  return useQuery({ queryKey: auditKeys.actors(), queryFn: ({ signal }) => api.get<string[]>('/audit-log/actors', { signal }) });
}

/** The audit trail of one record, as its history card links to it. */
export function auditLink(entity: string, entityId: string): string {
  return `/audit-log?${new URLSearchParams({ entity, entityId }).toString()}`;
}
