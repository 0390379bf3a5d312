/** The staff dashboard's figures (one request; refreshed every minute while the page is open). */
import { useQuery } from '@tanstack/react-query';
import type { Dashboard } from '../../../shared/contract/dashboard';
import { api } from '../../lib/api';

export const dashboardKeys = { all: ['dashboard'] as const };

export function useDashboard() {
  return useQuery({
    queryKey: dashboardKeys.all,
    queryFn: ({ signal }) => api.get<Dashboard>('/dashboard', { signal }),
    refetchInterval: 60_000,
  });
}
