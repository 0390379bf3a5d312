/**
 * Building blocks of every contract: field helpers whose messages are i18n keys (so that the same
 * schema gives the server's 400 and the form's field error), the list query and the envelopes.
 */
import { z } from 'zod';

export const MSG = {
  required: 'validation.required',
  email: 'validation.email',
  invalid: 'validation.invalid',
  tooLong: 'validation.tooLong',
} as const;

/** PostgreSQL cannot store U+0000 in text or jsonb; refusing it here keeps it a field error, not a 500. */
export const noNul = (s: string) => !s.includes('\u0000');

/** A trimmed, non-empty string of at most `max` characters. */
export function requiredText(max = 255) {
  return z
    .string({ error: MSG.required })
    .trim()
    .min(1, { error: MSG.required, abort: true })
    .max(max, { error: MSG.tooLong })
    .refine(noNul, { error: MSG.invalid });
}

/** A trimmed string that may be empty (stored as an empty string). */
export function optionalText(max = 255) {
  return z.string({ error: MSG.invalid }).trim().max(max, { error: MSG.tooLong }).refine(noNul, { error: MSG.invalid }).default('');
}

/** An email address, trimmed and lower-cased: comparisons of addresses ignore case. */
export function emailField() {
  return z
    .string({ error: MSG.required })
    .trim()
    .min(1, { error: MSG.required, abort: true })
    .max(254, { error: MSG.email, abort: true })
    .pipe(z.email({ error: MSG.email }))
    .transform((s) => s.toLowerCase());
}

export const idParam = z.object({
  id: z.uuid({ error: 'errors.notFound' }),
});

export const PAGE_SIZES = [5, 10, 20, 25, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number] | 'all';

/** Upper bound of rows one "all" page returns; larger tables are paged by the client behind the scenes. */
export const ALL_PAGE_LIMIT = 10_000;

// The list query's fields other than `sort`, made once: every contract module calls listQuery as it loads,
// and a phone building these schemas anew for each list spent a tenth of a second before the first screen.
const pageField = z.coerce.number({ error: MSG.invalid }).int().min(1).max(1_000_000).default(1);
const pageSizeField = z
  .union([z.literal('all'), z.coerce.number().pipe(z.union(PAGE_SIZES.map((n) => z.literal(n))))], {
    error: 'validation.oneOf',
  })
  .default(10);
const orderField = z.enum(['asc', 'desc'], { error: 'validation.oneOf' }).default('asc');
const searchField = z.string().trim().max(200).refine(noNul, { error: MSG.invalid }).optional();

/** `page`, `pageSize`, `sort`, `order` and `q` of every list endpoint. */
export function listQuery<const S extends readonly [string, ...string[]]>(sortable: S) {
  return z.object({
    page: pageField,
    pageSize: pageSizeField,
    sort: z.enum(sortable, { error: 'validation.oneOf' }).optional(),
    order: orderField,
    q: searchField,
  });
}

export type ListQuery<S extends string = string> = {
  page: number;
  pageSize: PageSize;
  sort?: S;
  order: 'asc' | 'desc';
  q?: string;
};

/** `{ data: T }`: the success envelope. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ data });
}

export function listEnvelope<T extends z.ZodType>(item: T) {
  return envelope(z.object({ items: z.array(item), total: z.number().int() }));
}

export const okEnvelope = envelope(z.object({ ok: z.literal(true) }));

export const errorEnvelope = z.object({
  error: z.object({
    status: z.string(),
    message: z.string(),
    key: z.string().optional(),
    fields: z.array(z.object({ field: z.string(), key: z.string(), message: z.string() })).optional(),
    requestId: z.string().optional(),
  }),
});

/** Limit and offset of a list query; `all` yields at most ALL_PAGE_LIMIT rows. */
export function pageWindow(q: { page: number; pageSize: PageSize }): { limit: number; offset: number } {
  if (q.pageSize === 'all') return { limit: ALL_PAGE_LIMIT, offset: (q.page - 1) * ALL_PAGE_LIMIT };
  return { limit: q.pageSize, offset: (q.page - 1) * q.pageSize };
}
