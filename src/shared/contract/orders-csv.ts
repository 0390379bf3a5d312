/**
 * The CSV files of customers, purchase orders and deliveries (docs/api.md): their columns, and the customer's
 * contacts written in one cell and read back, so that an exported list imports as the same records.
 */
import type { CustomerContactInput } from './orders';

/**
 * `GET /api/v1/customers/export.csv` and `POST /api/v1/customers/import`: emailDomains are separated by
 * spaces; contacts by `;`, each written `Name <email> (language)` with `, certificates` inside the
 * parentheses when the contact receives them (formatContacts / parseContacts).
 */
export const CUSTOMER_CSV_COLUMNS = [
  'name',
  'code',
  'address',
  'postcode',
  'city',
  'country',
  'language',
  'emailDomains',
  'contacts',
] as const;

/** A customer's contacts as the CSV's `contacts` cell: `Ann Lee <ann@x.com> (en, certificates); Bo <bo@x.com> (zh)`. */
export function formatContacts(
  contacts: readonly { name: string; email: string; language: string; receivesCertificates: boolean }[],
): string {
  return contacts.map((c) => `${c.name} <${c.email}> (${c.language}${c.receivesCertificates ? ', certificates' : ''})`).join('; ');
}

// A name holds no `<`, `;` or line break in the cell (parseContacts refuses it rather than guess).
const CONTACT_CELL = /^([^<;]*?)\s*<([^<>;\s]+)>\s*(?:\(\s*([a-z]{2})\s*(,\s*certificates\s*)?\))?$/i;

/**
 * The `contacts` cell back into contacts (for customerInput), or null when one of them is not written as
 * formatContacts writes it. A contact without parentheses takes the defaults (English, no certificates).
 */
export function parseContacts(cell: string): CustomerContactInput[] | null {
  const out: CustomerContactInput[] = [];
  for (const part of cell.split(';')) {
    const s = part.trim();
    if (!s) continue;
    const m = CONTACT_CELL.exec(s);
    if (!m) return null;
    out.push({
      name: m[1]!,
      email: m[2]!,
      language: (m[3]?.toLowerCase() ?? 'en') as CustomerContactInput['language'],
      receivesCertificates: Boolean(m[4]),
    });
  }
  return out;
}

/**
 * `GET /api/v1/purchase-orders/export.csv` and `POST /api/v1/purchase-orders/import`: one row per item; the
 * rows of one order (same customer code and PO number) repeat its date and document type. `customer` is the
 * customer's code, `product` the product's name; tags are separated by spaces.
 */
export const PURCHASE_ORDER_CSV_COLUMNS = [
  'customer',
  'number',
  'date',
  'documentType',
  'line',
  'product',
  'quantity',
  'buyerItemCode',
  'description',
  'tags',
] as const;

/** `GET /api/v1/deliveries/export.csv`: the list as filtered, one row per delivery. */
export const DELIVERY_CSV_COLUMNS = [
  'number',
  'date',
  'status',
  'customer',
  'purchaseOrder',
  'unitCount',
  'issuedCount',
  'releasedAt',
  'cancelReason',
] as const;

/**
 * `POST /api/v1/deliveries/{id}/serials.csv` (multipart, one file): these columns, all or nothing as the
 * JSON batch. A refused file answers 400 with `fields` named `rows.<file row>.<column>` (the header is row 1);
 * the JSON batch names `units.<index>.<field>`.
 */
export const DELIVERY_UNIT_CSV_COLUMNS = ['serial', 'line', 'tag'] as const;
