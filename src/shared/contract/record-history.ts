/** The change history of one catalogue record (from the audit log), and the answer of a CSV import. */
import { z } from 'zod';

export const historyEntry = z.object({
  id: z.number().int(),
  at: z.string(),
  action: z.string(),
  actor: z.object({ id: z.string().nullable(), label: z.string(), name: z.string().nullable() }),
  /** field → before and after; for a create only `after`, for a delete only `before` */
  changes: z.array(z.object({ field: z.string(), before: z.unknown().optional(), after: z.unknown().optional() })),
});
export type HistoryEntry = z.infer<typeof historyEntry>;

export const rowError = z.object({
  /** 1-based line of the data row in the file (the header is row 1, so the first data row is 2) */
  row: z.number().int(),
  field: z.string(),
  key: z.string(),
  message: z.string(),
});
export type RowError = z.infer<typeof rowError>;

export const importResult = z.object({
  dryRun: z.boolean(),
  /** data rows read */
  rows: z.number().int(),
  /** rows stored (0 unless the whole file was valid and this was not a dry run) */
  stored: z.number().int(),
  valid: z.boolean(),
  errors: z.array(rowError),
  /** true when more errors were found than `errors` lists */
  errorsTruncated: z.boolean(),
});
export type ImportResult = z.infer<typeof importResult>;

export const importQuery = z.object({
  dryRun: z
    .enum(['true', 'false', '1', '0'], { error: 'validation.oneOf' })
    .optional()
    .transform((v) => v === 'true' || v === '1'),
});
