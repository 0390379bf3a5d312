/** The staff dashboard's figures (one request; refreshed every minute while the page is open). */
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { Dashboard } from '../../../shared/contract/dashboard';
import { api } from '../../lib/api';

export const dashboardKeys = { all: ['dashboard'] as const };

export const dashboardQuery = () =>
  queryOptions({ queryKey: dashboardKeys.all, queryFn: ({ signal }) => api.get<Dashboard>('/dashboard', { signal }) });

export function useDashboard() {
  return useQuery({ ...dashboardQuery(), refetchInterval: 60_000 });
}

/** The figures, asked for as the dashboard's code arrives (src/web/app/router.tsx); settles when they are in. */
export function prefetchDashboard(client: QueryClient): Promise<void> {
  return client.prefetchQuery(dashboardQuery());
}
