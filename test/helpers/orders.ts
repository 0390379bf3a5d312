/** Helpers of the orders tests: a customer, a purchase order over a product with a range, a delivery. */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { addProduct, postRange, rangeBody } from './catalogue';

type Json = Record<string, unknown>;

export async function post(app: FastifyInstance, cookie: string, url: string, payload: unknown, expected = 201) {
  const res = await app.inject({ method: 'POST', url, headers: { cookie }, payload: payload as Json });
  if (res.statusCode !== expected) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  return res.json().data;
}

export const uniq = () => randomBytes(3).toString('hex').toUpperCase();

export async function addCustomer(app: FastifyInstance, cookie: string, overrides: Json = {}) {
  return post(app, cookie, '/api/v1/customers', { name: `Buyer ${uniq()}`, code: `C${uniq()}`, ...overrides });
}

/** A product with the range `<prefix>0001…<prefix>1000` (or `size` units). */
export async function productWithRange(app: FastifyInstance, cookie: string, prefix: string, size = 1000) {
  const p = await addProduct(app, cookie);
  const end = `${prefix}${String(size).padStart(5, '0')}`;
  const res = await postRange(app, cookie, rangeBody(p.id, `${prefix}00001`, end, size));
  if (res.statusCode !== 201) throw new Error(`range: ${res.body}`);
  return p;
}

export async function addOrder(
  app: FastifyInstance,
  cookie: string,
  customerId: string,
  items: { line: number; productId: string; quantity: number }[],
) {
  return post(app, cookie, '/api/v1/purchase-orders', { customerId, number: `PO-${uniq()}`, date: '2024-05-01', items });
}

export async function addDelivery(app: FastifyInstance, cookie: string, purchaseOrderId: string) {
  return post(app, cookie, '/api/v1/deliveries', { purchaseOrderId, number: `D-${uniq()}`, date: '2024-05-02' });
}

/** Serials `<prefix>00001…` of a range made by productWithRange. */
export const serialsOf = (prefix: string, from: number, n: number) =>
  Array.from({ length: n }, (_, i) => `${prefix}${String(from + i).padStart(5, '0')}`);
