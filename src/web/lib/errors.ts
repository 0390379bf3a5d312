/** Turning failures into translated text: the server's key (or the client's four failures), else its message. */
import type { TFunction } from 'i18next';
import { ApiError } from './api';

export function errorMessage(t: TFunction, error: unknown): string {
  if (error instanceof ApiError) return t(error.key, { ...error.params, defaultValue: error.message });
  return t('errors.internal');
}
