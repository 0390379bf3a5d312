/** Toast notices of original-spec §9 (top right, 3000 ms, dismissible, pause on hover); texts are i18n keys. */
import { toast } from 'react-toastify';
import { errorMessage } from './errors';
import { i18next } from './i18n';

export function notifySuccess(key: string, params?: Record<string, unknown>): void {
  toast.success(i18next.t(key, params));
}

export function notifyError(error: unknown): void {
  toast.error(errorMessage(i18next.t, error));
}

export function notifyInfo(key: string, params?: Record<string, unknown>): void {
  toast.info(i18next.t(key, params));
}
