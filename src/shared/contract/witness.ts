/**
 * The purchaser's or a third party's inspector who witnessed a delivery's tests, for an EN 10204 3.2
 * inspection certificate (docs/decisions/0056-witnessed-certificates.md). Recorded per delivery while it is
 * open; a 3.2 delivery is released only once it is recorded, and every certificate of the delivery names it.
 */
import { z } from 'zod';
import { TEST_TYPES } from './test-types';
import { isoDate, line } from './order-fields';

export const WITNESS_NAME_MAX = 120;
export const WITNESS_ORGANISATION_MAX = 200;

/** `PUT /api/v1/deliveries/{id}/witness`: who witnessed which tests, and on which day. */
export const deliveryWitnessInput = z.object({
  name: line(WITNESS_NAME_MAX),
  organisation: line(WITNESS_ORGANISATION_MAX),
  witnessedOn: isoDate(),
  tests: z
    .array(z.enum(TEST_TYPES, { error: 'validation.oneOf' }), { error: 'orders.validation.witnessTests' })
    .min(1, { error: 'orders.validation.witnessTests' })
    .max(TEST_TYPES.length, { error: 'validation.max' })
    .transform((ts) => TEST_TYPES.filter((x) => ts.includes(x))),
});
export type DeliveryWitnessInput = z.input<typeof deliveryWitnessInput>;
export type DeliveryWitnessValues = z.output<typeof deliveryWitnessInput>;

/** The witness as recorded, with who recorded it and when. */
export const deliveryWitness = z.object({
  name: z.string(),
  organisation: z.string(),
  witnessedOn: z.string(),
  tests: z.array(z.enum(TEST_TYPES)),
  recordedBy: z.string(),
  recordedAt: z.string(),
});
export type DeliveryWitness = z.infer<typeof deliveryWitness>;
