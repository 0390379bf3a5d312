/** Turning failures into translated text: the server's key (or the client's four failures), else its message. */
import { ApiError } from './api';

/**
 * Any translator taking a key and options: i18next's `t`, or the public page's own (src/web/features/public/lib/public-i18n.ts).
 * A method-style signature, so that i18next's overloaded TFunction fits it.
 */
export interface Translator {
  (key: string, options?: Record<string, unknown>): string;
}

export function errorMessage(t: Translator, error: unknown): string {
  if (error instanceof ApiError) return t(error.key, { ...error.params, defaultValue: error.message });
  return t('errors.internal');
}
