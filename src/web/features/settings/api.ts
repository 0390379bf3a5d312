/** Site settings (admin edits, staff reads): the text fields, the logo and the signing certificate. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RecordArchiveInfo, Settings, SettingsUpdateInput, VerificationKey } from '../../../shared/contract/settings';
import { api, API_BASE, ApiError } from '../../lib/api';
import { currentLanguage } from '../../lib/i18n';

export const settingsKeys = {
  all: ['settings'] as const,
};

/** A save answers the settings and the server's translated success text (its key, for the toast). */
export interface Saved<T = Settings> {
  data: T;
  messageKey: string;
}

export function useSettings() {
  return useQuery({ queryKey: settingsKeys.all, queryFn: ({ signal }) => api.get<Settings>('/settings', { signal }) });
}

type Envelope<T> = {
  data?: T;
  messageKey?: string;
  error?: { status?: string; key?: string; message?: string; params?: Record<string, string | number>; fields?: [] };
};

/**
 * The settings writes answer `{ data, message, messageKey }` (the API client keeps only `data`), and the
 * uploads are multipart: one small fetch for both. Same-origin fetch sends our Origin, which the server's
 * CSRF rule needs; failures read like the API client's.
 */
async function send<T = Settings>(method: 'PUT' | 'DELETE' | 'POST', path: string, body?: FormData | object): Promise<Saved<T>> {
  const json = body !== undefined && !(body instanceof FormData);
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, {
      method,
      credentials: 'same-origin',
      headers: {
        accept: 'application/json',
        'accept-language': currentLanguage(),
        ...(json ? { 'content-type': 'application/json' } : {}),
      },
      body: json ? JSON.stringify(body) : body,
    });
  } catch {
    throw new ApiError({ status: 'UNAVAILABLE', httpStatus: 0, key: 'errors.connectionFailed', message: 'Connection failed' });
  }
  const answer = (await response.json().catch(() => ({}))) as Envelope<T>;
  if (!response.ok || !answer.data) {
    const e = answer.error ?? {};
    throw new ApiError({
      status: e.status ?? 'UNKNOWN',
      httpStatus: response.status,
      key: e.key ?? 'errors.internal',
      message: e.message ?? response.statusText,
      params: e.params,
      fields: e.fields ?? [],
    });
  }
  return { data: answer.data, messageKey: answer.messageKey ?? 'settings.saved' };
}

function upload(file: File, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', file, file.name);
  return form;
}

function useSaving<A>(fn: (arg: A) => Promise<Saved>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (saved) => qc.setQueryData(settingsKeys.all, saved.data),
  });
}

export const useUpdateSettings = () => useSaving((input: SettingsUpdateInput) => send('PUT', '/settings', input));
export const useUploadLogo = () => useSaving((file: File) => send('PUT', '/settings/logo', upload(file)));
export const useRemoveLogo = () => useSaving(() => send('DELETE', '/settings/logo'));
export const useUploadCertificate = () =>
  useSaving(({ file, password }: { file: File; password: string }) => send('PUT', '/settings/certificate', upload(file, { password })));
export const useUpdateSearchRetention = () => useSaving((days: number) => send('PUT', '/settings/search-retention', { days }));
export const useUpdateRecordRetention = () => useSaving((years: number | null) => send('PUT', '/settings/record-retention', { years }));
export const useGenerateCertificate = () => useSaving(() => send('POST', '/settings/certificate/generate', {}));

/** What the record archive holds (docs/decisions/0072-record-archive.md). */
export function useRecordArchive() {
  return useQuery({
    queryKey: ['settings', 'record-archive'] as const,
    queryFn: ({ signal }) => api.get<RecordArchiveInfo>('/settings/record-archive', { signal }),
  });
}

/** The offline proofs' keys (docs/decisions/0063-offline-verification.md): listed, and rotated by an admin. */
export const verificationKeysKey = ['settings', 'verification-keys'] as const;

export function useVerificationKeys() {
  return useQuery({
    queryKey: verificationKeysKey,
    queryFn: ({ signal }) => api.get<VerificationKey[]>('/settings/verification-keys', { signal }),
  });
}

export function useRotateVerificationKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => send<VerificationKey[]>('POST', '/settings/verification-keys/rotate', {}),
    onSuccess: (saved) => qc.setQueryData(verificationKeysKey, saved.data),
  });
}
