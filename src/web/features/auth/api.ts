/** Sign-in, session and own-account calls, with their query keys. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ChangePasswordInput,
  ForgotPasswordInput,
  Me,
  RegisterInput,
  ResetPasswordInput,
  UpdateMeInput,
} from '../../../shared/contract/auth';
import { api } from '../../lib/api';
import { queryClient } from '../../lib/query-client';

export const authKeys = {
  all: ['auth'] as const,
  me: () => [...authKeys.all, 'me'] as const,
  setup: () => [...authKeys.all, 'setup'] as const,
};

/** The signed-in user and their abilities, or null for a visitor (200 either way: no error in the console). */
export async function fetchMe(): Promise<Me | null> {
  return api.get<Me | null>('/auth/session', { allowUnauthenticated: true });
}

export const meQuery = () => queryOptions({ queryKey: authKeys.me(), queryFn: fetchMe, staleTime: 5 * 60_000 });

/** Read the session once (guards call this before every guarded route). */
export function ensureMe(): Promise<Me | null> {
  return queryClient.ensureQueryData(meQuery());
}

/** The cached session without fetching it: public pages never ask the server who is signed in. */
export function useMe(): Me | null | undefined {
  return useQuery({ ...meQuery(), enabled: false }).data;
}

export function useSetupStatus() {
  return useQuery({
    queryKey: authKeys.setup(),
    queryFn: () => api.get<{ needsFirstAdmin: boolean }>('/auth/setup'),
    staleTime: 0,
  });
}

async function signedIn(): Promise<Me | null> {
  const me = await fetchMe();
  queryClient.setQueryData(authKeys.me(), me);
  return me;
}

export function useRegister() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (input: RegisterInput) => {
      await api.post('/auth/register', input);
      return signedIn();
    },
    onSettled: () => qc.invalidateQueries({ queryKey: authKeys.setup() }),
  });
}

export function useLogout() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.post('/auth/logout', {}, { allowUnauthenticated: true }),
    onSettled: () => {
      // Nothing of the previous user may stay in the cache.
      qc.removeQueries({ predicate: (q) => q.queryKey[0] !== authKeys.all[0] });
      qc.setQueryData(authKeys.me(), null);
    },
  });
}

export function useForgotPassword() {
  return useMutation({ mutationFn: (input: ForgotPasswordInput) => api.post('/auth/forgot-password', input) });
}

export function useResetPassword() {
  return useMutation({ mutationFn: (input: ResetPasswordInput) => api.post('/auth/reset-password', input) });
}

export function useUpdateMe() {
  return useMutation({
    mutationFn: (input: UpdateMeInput) => api.patch<unknown>('/auth/me', input),
    onSuccess: () => signedIn(),
  });
}

/** Forget the session in the cache (a 401 told us it ended). */
export function clearSession(): void {
  queryClient.setQueryData(authKeys.me(), null);
}

export function useChangePassword() {
  return useMutation({ mutationFn: (input: ChangePasswordInput) => api.post('/auth/password', input) });
}

export function useRevokeOtherSessions() {
  return useMutation({ mutationFn: () => api.post('/auth/sessions/revoke-others', {}) });
}
