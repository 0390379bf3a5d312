/**
 * The buyer's delivery link, public side: the index a link opens (also index.json in its ZIP) and the
 * request "I have a delivery" on /search.
 */
import { z } from 'zod';
import { LANGUAGES } from '../i18n/languages';
import { emailField, requiredText } from './common';
import { DELIVERY_NUMBER_MAX, ORDER_DOCUMENT_TYPES } from './orders';
import { printable } from './products';

const line = (max: number) => requiredText(max).refine(printable, { error: 'validation.invalid' });

// ── The buyer's delivery link (public) ───────────────────────────────────────────────────────────────────

/** A link's token: 32 random bytes in base64url (43 characters). */
export const DELIVERY_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const publicCertificateVersion = z.object({
  reportId: z.string(),
  reportNumber: z.string(),
  sha256: z.string(),
  issuedAt: z.string(),
});

/** `GET /api/v1/public/deliveries/{token}`: the delivery's index (also `index.json` in the ZIP; docs/schemas/delivery-index.schema.json). */
export const publicDeliveryIndex = z.object({
  schema: z.literal('test-report-center/delivery-index'),
  /** 2: the mill certificates of the units' heats were added */
  schemaVersion: z.literal(2),
  customer: z.object({ name: z.string(), code: z.string() }),
  purchaseOrder: z.object({ number: z.string(), date: z.string(), documentType: z.enum(ORDER_DOCUMENT_TYPES) }),
  delivery: z.object({ number: z.string(), date: z.string(), releasedAt: z.string().nullable() }),
  units: z.array(
    z.object({
      serial: z.string(),
      tag: z.string(),
      line: z.number().int(),
      buyerItemCode: z.string(),
      product: z.string(),
      /** the product's Chinese name, '' when it has none */
      productZh: z.string(),
      verdict: z.string(),
      reportNumber: z.string(),
      reportId: z.string(),
      sha256: z.string(),
      issuedAt: z.string(),
      /** earlier versions of this unit's certificate, newest first */
      superseded: z.array(publicCertificateVersion),
    }),
  ),
  /**
   * The mill certificate of every heat the units were made from, once each (a heat with none uploaded is left
   * out): `file` is its path in the ZIP, checked by its SHA-256.
   */
  millCertificates: z.array(
    z.object({
      heat: z.string(),
      material: z.string(),
      certificateNumber: z.string(),
      certificateType: z.string(),
      file: z.string(),
      sha256: z.string(),
      bytes: z.number().int(),
    }),
  ),
});
export type PublicDeliveryIndex = z.infer<typeof publicDeliveryIndex>;

/**
 * `POST /api/v1/public/delivery-links`: "I have a delivery". The answer is the same whether or not the
 * delivery exists or the address is one of its customer's contacts; only then is the link emailed.
 */
export const deliveryLinkRequestInput = z.object({
  deliveryNumber: line(DELIVERY_NUMBER_MAX),
  email: emailField(),
  language: z.enum(LANGUAGES, { error: 'validation.oneOf' }),
  /** the solved proof-of-work: base64 of the ALTCHA payload */
  challenge: z
    .string({ error: 'publicApi.challengeRequired' })
    .min(1, { error: 'publicApi.challengeRequired' })
    .max(4096, { error: 'publicApi.challengeInvalid' }),
});
export type DeliveryLinkRequestInput = z.input<typeof deliveryLinkRequestInput>;
export const deliveryLinkRequestResult = z.object({ message: z.string() });
