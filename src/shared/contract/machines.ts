/**
 * Test benches and their API keys (docs/product.md §3, §5; admin only). A key is `trc_live_` + 32 random bytes
 * (base64url); it is shown once, in the answer that creates or rotates it, and stored only as a hash.
 */
import { z } from 'zod';
import { envelope, listEnvelope, listQuery, requiredText } from './common';
import { LINE_BREAK, noLineBreak, printable } from './products';

export const MACHINE_NAME_MAX = 120;
export const MACHINE_KEY_PREFIX = 'trc_live_';
/** How much of the key stays visible (`trc_live_ab12`): enough to tell keys apart, far too little to guess. */
export const MACHINE_KEY_VISIBLE = MACHINE_KEY_PREFIX.length + 4;
/** The shape of a key; anything else is refused without a database lookup. */
export const MACHINE_KEY_RE = /^trc_live_[A-Za-z0-9_-]{43}$/;

const machineName = () => requiredText(MACHINE_NAME_MAX).refine(noLineBreak, LINE_BREAK).refine(printable, { error: 'validation.invalid' });

export const machineCreateInput = z.object({ name: machineName() });
export type MachineCreateInput = z.input<typeof machineCreateInput>;

/** Rename, disable (`disabled: true`) or enable a bench. */
export const machineUpdateInput = z
  .object({ name: machineName().optional(), disabled: z.boolean({ error: 'validation.invalid' }).optional() })
  .refine((v) => v.name !== undefined || v.disabled !== undefined, { error: 'validation.required', path: ['name'] });
export type MachineUpdateInput = z.input<typeof machineUpdateInput>;

export const machine = z.object({
  id: z.string(),
  name: z.string(),
  /** the visible start of the current key, e.g. `trc_live_ab12` */
  keyPrefix: z.string(),
  disabled: z.boolean(),
  lastUsedAt: z.string().nullable(),
  /** records this bench has sent */
  recordCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Machine = z.infer<typeof machine>;

/** Create and rotate answer with the key: the only time it is ever shown. */
export const machineWithKey = z.object({ machine, key: z.string() });
export type MachineWithKey = z.infer<typeof machineWithKey>;
export const machineWithKeyEnvelope = envelope(machineWithKey);

/** Delete answers which of the two happened: a bench that has records is disabled instead. */
export const machineDeleteOutcome = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('deleted') }),
  z.object({ outcome: z.literal('disabled'), recordCount: z.number().int() }),
]);
export type MachineDeleteOutcome = z.infer<typeof machineDeleteOutcome>;

export const MACHINE_SORTS = ['name', 'lastUsedAt', 'recordCount', 'createdAt'] as const;
export type MachineSort = (typeof MACHINE_SORTS)[number];
/** `q` searches the name and the key prefix. */
export const machineListQuery = listQuery(MACHINE_SORTS);
export type MachineListQuery = z.output<typeof machineListQuery>;
export const machineListEnvelope = listEnvelope(machine);

/**
 * Who may import test records in a bench's name (`/api/v1/machines/{id}/import-grants`): staff accounts an
 * admin granted it to (admins may always). `candidates` are the staff accounts that could be granted.
 */
export const importGrants = z.object({
  userIds: z.array(z.string()),
  candidates: z.array(z.object({ id: z.string(), name: z.string(), email: z.string() })),
});
export type ImportGrants = z.infer<typeof importGrants>;
export const importGrantsInput = z.object({
  userIds: z.array(z.uuid({ error: 'validation.invalid' }), { error: 'validation.invalid' }).max(1000, { error: 'validation.max' }),
});
export type ImportGrantsInput = z.infer<typeof importGrantsInput>;
