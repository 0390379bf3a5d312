/**
 * The public API as the /search page calls it. The page has no query cache (decision 0006): each call is a
 * plain promise, and only types come from the contracts, so that zod stays out of the first bundle.
 */
import type { DeliveryLinkRequestInput, PublicDeliveryIndex } from '../../../shared/contract/delivery-links';
import type { ReportVerification } from '../../../shared/contract/reports';
import type { PublicSettings } from '../../../shared/contract/settings';
import type { LookupAnswerData, ReportRequestInput, ReportRequestResult } from './lib/public-types';
import type { PowChallenge } from './lib/public-types';
import { api, ApiError } from '../../lib/api';

export const fetchSite = () => api.get<PublicSettings>('/public/settings');

export const lookupSerial = (serial: string) => api.post<LookupAnswerData>('/public/lookup', { serial });

export const fetchChallenge = () => api.get<PowChallenge>('/public/challenge');

export const requestReports = (body: ReportRequestInput) => api.post<ReportRequestResult>('/public/report-requests', body);

export const verifyById = (id: string) => api.get<ReportVerification>(`/public/reports/${encodeURIComponent(id)}`);

/** The server forgives case, spaces and dashes in a typed code. */
export const verifyByCode = (code: string) => api.get<ReportVerification>(`/public/reports/by-code/${encodeURIComponent(code.trim())}`);

export const verifyByHash = (sha256: string) => api.get<ReportVerification>(`/public/reports/by-hash/${sha256}`);

/** A delivery link's index (`/search?delivery=<token>`); a 404 for a token that opens nothing. */
export const fetchDelivery = (token: string) => api.get<PublicDeliveryIndex>(`/public/deliveries/${encodeURIComponent(token)}`);

/** The ZIP of every certificate of the delivery: a plain link, the browser downloads it. */
export const deliveryZipPath = (token: string) => `/api/v1/public/deliveries/${encodeURIComponent(token)}.zip`;
/** One unit's certificate in a rendering of the buyer's choice, issued under the same number. */
export const unitPdfPath = (token: string, serial: string, language: 'en' | 'zh' | 'bilingual') =>
  `/api/v1/public/deliveries/${encodeURIComponent(token)}/${encodeURIComponent(serial)}.pdf?language=${language}`;

export const requestDeliveryLink = (body: DeliveryLinkRequestInput) => api.post<{ message: string }>('/public/delivery-links', body);

/** A 404 of a lookup or a verification is an answer ("not found", "not known"), not a failure. */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.httpStatus === 404;
}
