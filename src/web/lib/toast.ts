/**
 * Toast notices of docs/product.md §8 (top right, 3000 ms, dismissible, pause on hover); texts are i18n
 * keys. react-toastify is fetched with the first notice, so pages that never show one never load it.
 */
import { errorMessage } from './errors';
import { i18next } from './i18n';

type Kind = 'success' | 'error' | 'info';

function show(kind: Kind, text: string): void {
  void import('./toast-host').then((m) => m.showToast(kind, text));
}

export function notifySuccess(key: string, params?: Record<string, unknown>): void {
  show('success', i18next.t(key, params));
}

export function notifyError(error: unknown): void {
  show('error', errorMessage(i18next.t, error));
}

export function notifyInfo(key: string, params?: Record<string, unknown>): void {
  show('info', i18next.t(key, params));
}
