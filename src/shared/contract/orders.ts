/**
 * Customers, their purchase orders and the deliveries that ship them (docs/product.md, "Orders and
 * deliveries"). One schema serves each route and its form; every message is an i18n key. The server enforces
 * the rules that need the database (a serial in a range of the item's product, in one open delivery only,
 * quantities shipped within the quantities ordered, tags unique within a purchase order).
 */
import { z } from 'zod';
import { PRESSURE_PARTS } from './materials';
import { LANGUAGES } from '../i18n/languages';
import { emailField, listQuery, requiredText } from './common';
import { CITY_MAX, countryCode, isoDate, line, multiline, optionalLine, POSTCODE_MAX } from './order-fields';
import { deliveryWitness } from './witness';

export const CUSTOMER_NAME_MAX = 200;
export const CUSTOMER_CODE_MAX = 20;
export const ADDRESS_MAX = 500;
export const CONTACTS_MAX = 50;
export const EMAIL_DOMAINS_MAX = 20;
export const PO_NUMBER_MAX = 60;
export const ITEM_TEXT_MAX = 200;
export const ITEMS_MAX = 500;
export const QUANTITY_MAX = 1_000_000;
export const DELIVERY_NUMBER_MAX = 60;
export const TAG_MAX = 60;
/** Tag numbers one order item may list. */
export const ITEM_TAGS_MAX = 500;
/** Units one `POST …/serials` may carry (a range is written out before it is sent). */
export const DELIVERY_UNITS_MAX = 10_000;

/** The certificate type a buyer asks for (EN 10204). */
export const ORDER_DOCUMENT_TYPES = ['2.2', '3.1', '3.2'] as const;
export type OrderDocumentType = (typeof ORDER_DOCUMENT_TYPES)[number];

export const DELIVERY_STATUSES = ['open', 'releasing', 'released', 'cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** A domain name as an address's part after the @, lower-cased (`example.com`). */
const emailDomain = () =>
  z
    .string({ error: 'validation.invalid' })
    .trim()
    .toLowerCase()
    .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, { error: 'orders.validation.domain' });

// ── Customers ────────────────────────────────────────────────────────────────────────────────────────────

export const customerContactInput = z.object({
  // Without < > ; so that the CSV's contacts cell (formatContacts) reads back as the same contacts.
  name: line(CUSTOMER_NAME_MAX).refine((s) => !/[<>;]/.test(s), { error: 'orders.validation.contactName' }),
  email: emailField(),
  language: z.enum(LANGUAGES, { error: 'validation.oneOf' }).default('en'),
  /** whether released deliveries' certificate links are sent to this contact */
  receivesCertificates: z.boolean({ error: 'validation.invalid' }).default(true),
});
export type CustomerContactInput = z.input<typeof customerContactInput>;

export const customerInput = z.object({
  name: line(CUSTOMER_NAME_MAX),
  /** a short code staff use (unique, upper-cased): `TPC` */
  code: requiredText(CUSTOMER_CODE_MAX)
    .toUpperCase()
    .regex(/^[A-Z0-9][A-Z0-9._-]*$/, { error: 'orders.validation.code' }),
  address: multiline(ADDRESS_MAX),
  /** the postcode and city apart, as the EN 10168 document names a company; empty when not given */
  postcode: optionalLine(POSTCODE_MAX),
  city: optionalLine(CITY_MAX),
  /** ISO 3166-1 alpha-2, upper-cased; empty when not known */
  country: countryCode(),
  language: z.enum(LANGUAGES, { error: 'validation.oneOf' }).default('en'),
  emailDomains: z.array(emailDomain()).max(EMAIL_DOMAINS_MAX, { error: 'validation.max' }).default([]),
  contacts: z.array(customerContactInput).max(CONTACTS_MAX, { error: 'validation.max' }).default([]),
});
export type CustomerInput = z.input<typeof customerInput>;
export type CustomerValues = z.output<typeof customerInput>;

export const customerContact = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  language: z.enum(LANGUAGES),
  receivesCertificates: z.boolean(),
});

export const customer = z.object({
  id: z.string(),
  name: z.string(),
  code: z.string(),
  address: z.string(),
  postcode: z.string(),
  city: z.string(),
  country: z.string(),
  language: z.enum(LANGUAGES),
  emailDomains: z.array(z.string()),
  contacts: z.array(customerContact),
  /** purchase orders of this customer */
  orderCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Customer = z.infer<typeof customer>;

export const CUSTOMER_SORTS = ['name', 'code', 'country', 'createdAt'] as const;
/** `q` searches the name, the code and the contacts' addresses. */
export const customerListQuery = listQuery(CUSTOMER_SORTS);
export type CustomerListQuery = z.output<typeof customerListQuery>;

// ── Purchase orders ──────────────────────────────────────────────────────────────────────────────────────

export const purchaseOrderItemInput = z.object({
  /** the buyer's line number, unique within the order */
  line: z.coerce
    .number({ error: 'validation.number' })
    .int({ error: 'validation.integer' })
    .min(1, { error: 'validation.min' })
    .max(99_999, { error: 'validation.max' }),
  productId: z.uuid({ error: 'orders.validation.product' }),
  quantity: z.coerce
    .number({ error: 'validation.number' })
    .int({ error: 'validation.integer' })
    .min(1, { error: 'validation.min' })
    .max(QUANTITY_MAX, { error: 'validation.max' }),
  buyerItemCode: optionalLine(ITEM_TEXT_MAX),
  description: optionalLine(ITEM_TEXT_MAX),
  /** the buyer's tag numbers for this item; when given, each delivered unit of the item carries one of them */
  tags: z
    .array(optionalLine(TAG_MAX).refine((s) => s !== '', { error: 'validation.required' }))
    .max(ITEM_TAGS_MAX, { error: 'validation.max' })
    .default([]),
});
export type PurchaseOrderItemInput = z.input<typeof purchaseOrderItemInput>;

export const purchaseOrderInput = z
  .object({
    customerId: z.uuid({ error: 'orders.validation.customer' }),
    number: line(PO_NUMBER_MAX),
    date: isoDate(),
    /** empty: the default from Settings */
    documentType: z.enum(ORDER_DOCUMENT_TYPES, { error: 'validation.oneOf' }).optional(),
    items: z.array(purchaseOrderItemInput).min(1, { error: 'orders.validation.noItems' }).max(ITEMS_MAX, { error: 'validation.max' }),
  })
  .superRefine((v, ctx) => {
    const seen = new Set<number>();
    v.items.forEach((it, i) => {
      if (seen.has(Number(it.line))) ctx.addIssue({ code: 'custom', path: ['items', i, 'line'], message: 'orders.validation.lineTwice' });
      seen.add(Number(it.line));
    });
    // A tag number names one unit within the order (ignoring case), as the delivered units' tags do.
    const tags = new Set<string>();
    v.items.forEach((it, i) => {
      for (const tag of it.tags) {
        const k = tag.toLowerCase();
        if (tags.has(k)) {
          ctx.addIssue({ code: 'custom', path: ['items', i, 'tags'], message: 'orders.validation.itemTagTwice' });
          return;
        }
        tags.add(k);
      }
    });
  });
export type PurchaseOrderInput = z.input<typeof purchaseOrderInput>;
export type PurchaseOrderValues = z.output<typeof purchaseOrderInput>;

export const purchaseOrderItem = z.object({
  line: z.number().int(),
  productId: z.string(),
  productName: z.string(),
  productNameZh: z.string(),
  quantity: z.number().int(),
  /** units of this item in open or released deliveries */
  shipped: z.number().int(),
  buyerItemCode: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
});

export const purchaseOrder = z.object({
  id: z.string(),
  customerId: z.string(),
  customerName: z.string(),
  customerCode: z.string(),
  number: z.string(),
  date: z.string(),
  documentType: z.enum(ORDER_DOCUMENT_TYPES),
  items: z.array(purchaseOrderItem),
  deliveryCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PurchaseOrder = z.infer<typeof purchaseOrder>;

export const PURCHASE_ORDER_SORTS = ['number', 'date', 'customer', 'createdAt'] as const;
/** `q` searches the PO number and the customer's name and code; `customerId` narrows to one customer. */
export const purchaseOrderListQuery = listQuery(PURCHASE_ORDER_SORTS).extend({
  customerId: z.uuid({ error: 'validation.invalid' }).optional(),
});
export type PurchaseOrderListQuery = z.output<typeof purchaseOrderListQuery>;

// ── Deliveries ───────────────────────────────────────────────────────────────────────────────────────────

export const deliveryInput = z.object({
  purchaseOrderId: z.uuid({ error: 'orders.validation.purchaseOrder' }),
  number: line(DELIVERY_NUMBER_MAX),
  date: isoDate(),
});
export type DeliveryInput = z.input<typeof deliveryInput>;

/** One shipped unit: its serial, the order item (line) it ships, and the buyer's tag number if any. */
export const deliveryUnitInput = z.object({
  serial: requiredText(64),
  line: z.coerce.number({ error: 'validation.number' }).int({ error: 'validation.integer' }).min(1, { error: 'validation.min' }),
  tag: optionalLine(TAG_MAX),
});
export type DeliveryUnitInput = z.input<typeof deliveryUnitInput>;

/** `POST /api/v1/deliveries/{id}/serials`: adds units to an open delivery, all or nothing. */
export const deliverySerialsInput = z.object({
  units: z.array(deliveryUnitInput).min(1, { error: 'orders.validation.noUnits' }).max(DELIVERY_UNITS_MAX, { error: 'validation.max' }),
});
export type DeliverySerialsInput = z.input<typeof deliverySerialsInput>;

export const deliveryCancelInput = z.object({ reason: line(500) });

export const deliveryUnit = z.object({
  serial: z.string(),
  line: z.number().int(),
  tag: z.string(),
  productName: z.string(),
  productNameZh: z.string(),
  /** the unit's newest certificate naming the order, once the release has issued it */
  reportId: z.string().nullable(),
  reportNumber: z.string().nullable(),
});

export const delivery = z.object({
  id: z.string(),
  purchaseOrderId: z.string(),
  purchaseOrderNumber: z.string(),
  customerId: z.string(),
  customerName: z.string(),
  number: z.string(),
  date: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  cancelReason: z.string().nullable(),
  releasedAt: z.string().nullable(),
  /** the account that started the release */
  releasedBy: z.string().nullable(),
  /** the certificates' language (the customer's), fixed when the release starts */
  releaseLanguage: z.enum(['en', 'zh']).nullable(),
  unitCount: z.number().int(),
  /** units whose certificate is stored: the release's progress */
  issuedCount: z.number().int(),
  /** why the last release stopped, e.g. a unit held after the gate had passed it */
  releaseError: z.string().nullable(),
  /** the purchaser's or a third party's inspector who witnessed the tests (a 3.2 order), null until recorded */
  witness: deliveryWitness.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Delivery = z.infer<typeof delivery>;

/** A link sent to the buyer: only its history is shown, never the token (only its hash is stored). */
export const deliveryLink = z.object({
  id: z.string(),
  source: z.enum(['release', 'staff', 'request']),
  sentTo: z.array(z.string()),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
});
export type DeliveryLink = z.infer<typeof deliveryLink>;

/** A delivery with its units and the links sent for it (the delivery page). */
export const deliveryDetail = delivery.extend({ units: z.array(deliveryUnit), links: z.array(deliveryLink) });
export type DeliveryDetail = z.infer<typeof deliveryDetail>;

export const DELIVERY_SORTS = ['number', 'date', 'status', 'customer', 'createdAt'] as const;
/** `q` searches the delivery and PO numbers and the customer; `status` and `purchaseOrderId` narrow it. */
export const deliveryListQuery = listQuery(DELIVERY_SORTS).extend({
  status: z.enum(DELIVERY_STATUSES, { error: 'validation.oneOf' }).optional(),
  purchaseOrderId: z.uuid({ error: 'validation.invalid' }).optional(),
});
export type DeliveryListQuery = z.output<typeof deliveryListQuery>;

/**
 * Serials as staff type or scan them, one a line, or a range `A…B` (also `A...B` or `A~B`) of one series;
 * each line may end with `,tag` (a range takes no tag). Every unit goes to `line`. Bad lines come back by
 * number; the server checks the serials themselves.
 */
export function parseSerialLines(
  text: string,
  lineNo: number,
  expand: (start: string, end: string) => string[] | null,
): { units: DeliveryUnitInput[]; bad: number[] } {
  const units: DeliveryUnitInput[] = [];
  const bad: number[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const s = raw.trim();
    if (!s) return;
    const range = s.split(/\s*(?:…|\.\.\.|~)\s*/);
    if (range.length === 2) {
      const all = expand(range[0]!, range[1]!);
      if (!all) bad.push(i + 1);
      else for (const serial of all) units.push({ serial, line: lineNo, tag: '' });
      return;
    }
    const [serial, tag = '', ...rest] = s.split(',').map((x) => x.trim());
    if (!serial || rest.length > 0) bad.push(i + 1);
    else units.push({ serial, line: lineNo, tag });
  });
  return { units, bad };
}

// ── The release gate ─────────────────────────────────────────────────────────────────────────────────────

/**
 * Why the release gate holds a unit (the reports' gate): a test failed, one is missing, no data at all, or a
 * pressure-retaining part has no heat (heat null) or its heat is on hold.
 */
export const gateHold = z.object({
  testType: z.string().nullable(),
  /**
   * untraced: a pressure part without a heat or with its heat on hold; unreleased: a 3.1 order's unit whose
   * range no authorised inspector has released yet; closure-one-side: a bidirectional valve's closure test
   * without a conforming record on `side`
   */
  kind: z.enum(['failed', 'missing', 'no-data', 'untraced', 'unreleased', 'closure-one-side']),
  side: z.enum(['A', 'B']).optional(),
  part: z.enum(PRESSURE_PARTS).optional(),
  heat: z.string().nullable().optional(),
  /** the standard's reason codes of a failed test */
  reasons: z.array(z.string()),
});

export const deliveryGateUnit = z.object({
  serial: z.string(),
  line: z.number().int(),
  tag: z.string(),
  productName: z.string(),
  productNameZh: z.string(),
  status: z.enum(['pass', 'held', 'no-data']),
  held: z.array(gateHold),
});

/** `GET /api/v1/deliveries/{id}/gate`: every unit's release-gate status; `held` counts units held or without data. */
export const deliveryGate = z.object({
  deliveryId: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  unitCount: z.number().int(),
  passed: z.number().int(),
  held: z.number().int(),
  units: z.array(deliveryGateUnit),
});
export type DeliveryGate = z.infer<typeof deliveryGate>;

/**
 * `POST /api/v1/deliveries/{id}/release` answers 202 with the delivery (status `releasing`); a unit the gate
 * holds answers 409 with `error` and `data` = the gate (the held units and why).
 */
export const deliveryReleaseHeld = z.object({
  error: z.object({
    status: z.string(),
    message: z.string(),
    key: z.string().optional(),
    params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
    requestId: z.string().optional(),
  }),
  /** present when the gate holds units (other 409s: released, cancelled, 3.2, no units) */
  data: deliveryGate.optional(),
});

/** `PUT /api/v1/deliveries/{id}/serials/{serial}`: a unit's tag; on a released delivery it gives the unit a new certificate version. */
export const deliveryUnitTagInput = z.object({ tag: optionalLine(TAG_MAX) });
