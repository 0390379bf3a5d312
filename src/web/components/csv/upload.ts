/**
 * A CSV upload with progress (used by ImportDialog; call it directly only for an import without the dialog). fetch() cannot report upload progress, so this one request uses
 * XMLHttpRequest; it is same-origin, so the browser sends our Origin (the server's CSRF rule for
 * multipart) and the session cookie. Answers and failures read like the API client's.
 */
import type { ImportResult } from '../../../shared/contract/record-history';
import { API_BASE, API_TIMEOUT_MS, ApiError } from '../../lib/api';
import { currentLanguage } from '../../lib/i18n';

export interface UploadProgress {
  /** 0..1 while the file is sent; null once it is sent and the server works */
  fraction: number | null;
}

/** POSTs `file` (and any `extra` files, by form field) as multipart to `importPath` under /api/v1, `?dryRun=`. */
export function uploadCsv(
  importPath: string,
  file: File,
  opts: { dryRun: boolean; onProgress: (p: UploadProgress) => void; signal?: AbortSignal; extra?: Record<string, File | null | undefined> },
): Promise<ImportResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${API_BASE}${importPath}?dryRun=${opts.dryRun ? 'true' : 'false'}`);
    xhr.timeout = API_TIMEOUT_MS * 4;
    xhr.withCredentials = true;
    xhr.setRequestHeader('accept', 'application/json');
    xhr.setRequestHeader('accept-language', currentLanguage());
    xhr.upload.onprogress = (e) => opts.onProgress({ fraction: e.lengthComputable && e.total > 0 ? e.loaded / e.total : null });
    xhr.upload.onload = () => opts.onProgress({ fraction: null });
    const fail = (key: string, status: string) => reject(new ApiError({ status, httpStatus: xhr.status, key, message: key }));
    xhr.ontimeout = () => fail('errors.requestTimeout', 'DEADLINE_EXCEEDED');
    xhr.onerror = () => fail('errors.connectionFailed', 'UNAVAILABLE');
    xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
    xhr.onload = () => {
      let json: unknown;
      try {
        json = JSON.parse(xhr.responseText);
      } catch {
        return fail('errors.invalidJsonResponse', 'INTERNAL');
      }
      const body = (json ?? {}) as {
        data?: ImportResult;
        error?: { status?: string; key?: string; message?: string; params?: Record<string, string | number>; fields?: [] };
      };
      if (xhr.status >= 400 || body.error) {
        const e = body.error ?? {};
        return reject(
          new ApiError({
            status: e.status ?? 'UNKNOWN',
            httpStatus: xhr.status,
            key: e.key ?? 'errors.internal',
            message: e.message ?? xhr.statusText,
            params: e.params,
            fields: e.fields ?? [],
          }),
        );
      }
      if (!body.data) return fail('errors.missingDataField', 'INTERNAL');
      resolve(body.data);
    };
    opts.signal?.addEventListener('abort', () => xhr.abort());
    const form = new FormData();
    // Extra files go first: the server reads the upload as a stream, and a file that qualifies the main
    // one (the samples of machine-data records) must have arrived before the main file is read.
    for (const [field, extra] of Object.entries(opts.extra ?? {})) if (extra) form.append(field, extra, extra.name);
    form.append('file', file, file.name);
    xhr.send(form);
  });
}
