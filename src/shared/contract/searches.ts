/**
 * Searches (docs/product.md §3 "Search request"): what the public Test Report Center was asked, listed
 * to staff and admins. One item is one public request (a group of rows, one per serial, sharing the id the
 * visitor was given; a not-found lookup is a group of one). The visitor's address is personal data: staff
 * receive it masked from the server (`j***@e***.com`), admins in full.
 */
import { z } from 'zod';
import { envelope, listQuery, noNul } from './common';
import { isDay } from './days';

/** Every status a row has; 'held' means found, but no report may go out (the visitor is not told why). */
export const SEARCH_STATUSES = ['not-found', 'held', 'queued', 'sent', 'failed'] as const;
export type SearchStatus = (typeof SEARCH_STATUSES)[number];

export const SEARCH_SORTS = ['createdAt'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

const day = z.string().trim().refine(isDay, { error: 'validation.date' }).optional();
const text = (max: number) =>
  z.string().trim().max(max, { error: 'validation.tooLong' }).refine(noNul, { error: 'validation.invalid' }).optional();

/**
 * Filters of the list and the CSV export. `q` and `serial` find requests holding a serial that contains the
 * text; `status` those with a serial in that status; `from`/`to` whole UTC days, inclusive. `email`: an
 * admin finds any address containing the text; for staff it must be the whole address (case ignored), so
 * that masked addresses cannot be spelled out a letter at a time.
 */
export const searchListQuery = listQuery(SEARCH_SORTS).extend({
  order: z.enum(['asc', 'desc'], { error: 'validation.oneOf' }).default('desc'),
  status: z.enum(SEARCH_STATUSES, { error: 'validation.oneOf' }).optional(),
  from: day,
  to: day,
  serial: text(200),
  email: text(254),
});
export type SearchListQuery = z.output<typeof searchListQuery>;

/** The order a request's outcomes are counted in: what went out first, what did not last. */
const COUNT_ORDER: readonly SearchStatus[] = ['sent', 'queued', 'failed', 'held', 'not-found'];

/**
 * How many serials of a request ended each way, when they did not all end the same way (else empty): a
 * request with two sent and two held serials is listed as "Sent", and these say that two were held.
 */
export function statusCounts(serials: readonly { status: SearchStatus }[]): Array<{ status: SearchStatus; count: number }> {
  const counts = new Map<SearchStatus, number>();
  for (const s of serials) counts.set(s.status, (counts.get(s.status) ?? 0) + 1);
  if (counts.size < 2) return [];
  return COUNT_ORDER.filter((status) => counts.has(status)).map((status) => ({ status, count: counts.get(status)! }));
}

export const searchSerial = z.object({
  serial: z.string(),
  status: z.enum(SEARCH_STATUSES),
  /** the issued report's id (its PDF is `/api/v1/reports/<id>.pdf` for staff), or null */
  reportId: z.string().nullable(),
});

export const searchRequest = z.object({
  /** the group id: the id the visitor was given */
  id: z.string(),
  createdAt: z.string(),
  source: z.enum(['lookup', 'request']),
  serials: z.array(searchSerial),
  /** at least one serial was found in the catalogue */
  found: z.boolean(),
  /** masked for staff; null for a lookup, or after the retention period */
  recipientEmail: z.string().nullable(),
  emailMasked: z.boolean(),
  language: z.enum(['en', 'zh']),
  termsVersion: z.number().int().nullable(),
  /** the request's state: its email's when one was sent, else held or not-found */
  status: z.enum(SEARCH_STATUSES),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  sentAt: z.string().nullable(),
  /** the email can be sent again: it was sent or failed, an address is kept and no resend is on its way */
  canResend: z.boolean(),
});
export type SearchRequest = z.infer<typeof searchRequest>;
/**
 * `totalEstimated`: the total was not counted exactly (more than TOTAL_COUNT_LIMIT requests match a filter the
 * kept day counts cannot answer) and is the planner's estimate; show it as "about N".
 */
export const searchListEnvelope = envelope(
  z.object({ items: z.array(searchRequest), total: z.number().int(), totalEstimated: z.boolean().optional() }),
);

/** One email of a request: the first and each resend, oldest first. */
export const searchDelivery = z.object({
  id: z.string(),
  createdAt: z.string(),
  status: z.enum(['queued', 'sending', 'sent', 'failed']),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  sentAt: z.string().nullable(),
  /** who asked for it again (audit log); null for the visitor's own request */
  resentBy: z.string().nullable(),
});
export type SearchDelivery = z.infer<typeof searchDelivery>;

export const searchRequestDetail = searchRequest.extend({
  deliveries: z.array(searchDelivery),
  /** admins only; null for staff and after the retention period */
  clientIp: z.string().nullable(),
  userAgent: z.string().nullable(),
});
export type SearchRequestDetail = z.infer<typeof searchRequestDetail>;
export const searchRequestDetailEnvelope = envelope(searchRequestDetail);
export const searchResendEnvelope = envelope(searchRequestDetail).extend({ message: z.string(), messageKey: z.string() });

/** The CSV export's columns, in order. */
export const SEARCH_EXPORT_COLUMNS = [
  'createdAt',
  'id',
  'source',
  'serials',
  'found',
  'recipientEmail',
  'language',
  'termsVersion',
  'status',
  'attempts',
  'lastError',
  'sentAt',
  'reports',
] as const;
