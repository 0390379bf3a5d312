/**
 * The one HTTP client of the web app. Every call answers `{ data }` or throws an ApiError whose `key` is an
 * i18n key: the server's envelope key, or one of the original's four client-side failures.
 */
import type { FieldError } from '../../shared/errors';

export const API_BASE = '/api/v1';
/** The original's callable timeout. */
export const API_TIMEOUT_MS = 70_000;

export class ApiError extends Error {
  readonly status: string;
  readonly httpStatus: number;
  readonly key: string;
  readonly params?: Record<string, string | number>;
  readonly fields: FieldError[];
  /** what a refusal carries beside its error, e.g. the release gate's held units of a 409 */
  readonly data?: unknown;

  constructor(init: {
    status: string;
    httpStatus: number;
    key: string;
    message: string;
    params?: Record<string, string | number>;
    fields?: FieldError[];
    data?: unknown;
  }) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.httpStatus = init.httpStatus;
    this.key = init.key;
    this.params = init.params;
    this.fields = init.fields ?? [];
    this.data = init.data;
  }
}

type UnauthenticatedHandler = (error: ApiError) => void;
let onUnauthenticated: UnauthenticatedHandler | undefined;
let currentLanguage = 'en';

/** Called for a 401 of any request that did not opt out (the session ended): the app sends the user to /login. */
export function setUnauthenticatedHandler(handler: UnauthenticatedHandler | undefined): void {
  onUnauthenticated = handler;
}

/** The language the server should answer messages in (visitors have no account language). */
export function setApiLanguage(language: string): void {
  currentLanguage = language;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null>;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** a 401 is an answer, not an ended session (sign-in with a wrong password, reading /auth/me) */
  allowUnauthenticated?: boolean;
}

function buildUrl(path: string, query?: RequestOptions['query']): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
  const s = qs.toString();
  return `${API_BASE}${path}${s ? `?${s}` : ''}`;
}

function clientError(key: string, status: string, httpStatus = 0): ApiError {
  const messages: Record<string, string> = {
    'errors.requestTimeout': 'Request time out',
    'errors.connectionFailed': 'Connection failed',
    'errors.invalidJsonResponse': 'Response is not valid JSON object',
    'errors.missingDataField': 'Response is missing data field',
  };
  return new ApiError({ status, httpStatus, key, message: messages[key] ?? key });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, query, signal, timeoutMs = API_TIMEOUT_MS, allowUnauthenticated } = options;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = () => controller.abort();
  signal?.addEventListener('abort', onAbort);

  let response: Response;
  try {
    response = await fetch(buildUrl(path, query), {
      method,
      credentials: 'same-origin',
      headers: {
        accept: 'application/json',
        'accept-language': currentLanguage,
        // A FormData body (a file upload) sets its own multipart type and boundary.
        ...(body !== undefined && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}),
      },
      body: body instanceof FormData ? body : body !== undefined ? JSON.stringify(body) : undefined,
      signal: controller.signal,
    });
  } catch (err) {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    if (timedOut) throw clientError('errors.requestTimeout', 'DEADLINE_EXCEEDED');
    if (signal?.aborted) throw err;
    throw clientError('errors.connectionFailed', 'UNAVAILABLE');
  }

  let json: unknown;
  try {
    const text = await response.text();
    json = text === '' && response.status === 204 ? { data: undefined } : JSON.parse(text);
  } catch {
    if (timedOut) throw clientError('errors.requestTimeout', 'DEADLINE_EXCEEDED', response.status);
    throw clientError('errors.invalidJsonResponse', 'INTERNAL', response.status);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
  if (!isObject(json)) throw clientError('errors.invalidJsonResponse', 'INTERNAL', response.status);

  if (!response.ok) {
    const e = isObject(json.error) ? json.error : {};
    const error = new ApiError({
      status: typeof e.status === 'string' ? e.status : 'UNKNOWN',
      httpStatus: response.status,
      key: typeof e.key === 'string' ? e.key : response.status === 401 ? 'errors.unauthenticated' : 'errors.internal',
      message: typeof e.message === 'string' ? e.message : response.statusText,
      params: isObject(e.params) ? (e.params as Record<string, string | number>) : undefined,
      fields: Array.isArray(e.fields) ? (e.fields as FieldError[]) : [],
      data: json.data,
    });
    if (response.status === 401 && !allowUnauthenticated) onUnauthenticated?.(error);
    throw error;
  }
  if (!('data' in json)) throw clientError('errors.missingDataField', 'INTERNAL', response.status);
  return json.data as T;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body: body ?? {} }),
  patch: <T>(path: string, body: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  put: <T>(path: string, body: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  delete: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'DELETE' }),
};
