/** Helpers of the catalogue tests: a signed-in staff member, valid product and range bodies, CSV uploads. */
import { randomBytes, randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { createSession, SESSION_COOKIE } from '../../src/server/lib/sessions';
import { gs1CheckDigit } from '../../src/shared/gtin';
import type { TestApp } from './app';
import { createUser } from './factories';

export const ORIGIN = 'http://localhost:3000';

export async function staffCookie(t: TestApp, overrides: { language?: 'en' | 'zh'; role?: 'admin' | 'staff' } = {}): Promise<string> {
  const user = await createUser(t.app.ctx.db, {
    role: overrides.role ?? 'staff',
    language: overrides.language ?? 'en',
    name: 'Stella Staff',
  });
  return `${SESSION_COOKIE}=${await createSession(t.app.ctx.db, user.id)}`;
}

export function productBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: `Gate Valve ${randomBytes(4).toString('hex')}`,
    fluid: 'water',
    connection: 'Flange',
    application: 'Waterworks',
    applicationMedium: 'Water',
    pressureFc: 1.6,
    pressureWcb: '2.5',
    pressureSus: '',
    temperatureMax: 120,
    temperatureMin: -10,
    ...overrides,
  };
}

export async function addProduct(app: FastifyInstance, cookie: string, overrides: Record<string, unknown> = {}) {
  const res = await app.inject({ method: 'POST', url: '/api/v1/products', headers: { cookie }, payload: productBody(overrides) });
  if (res.statusCode !== 201) throw new Error(`addProduct: ${res.statusCode} ${res.body}`);
  return res.json().data as { id: string; name: string };
}

/** A GTIN of `length` digits that no other test draws, with its GS1 check digit. */
export function randomGtin(length: 8 | 12 | 13 | 14 = 13): string {
  const body = `${randomInt(1, 10)}${Array.from({ length: length - 2 }, () => randomInt(0, 10)).join('')}`;
  return `${body}${gs1CheckDigit(body)}`;
}

export function rangeBody(productId: string, start: string, end: string, totalUnits: number, overrides: Record<string, unknown> = {}) {
  return { productId, startSerial: start, endSerial: end, totalUnits, productionDate: '2024-03-01', ...overrides };
}

export function postRange(app: FastifyInstance, cookie: string, body: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: '/api/v1/serial-ranges', headers: { cookie }, payload: body });
}

/** A multipart body with one file part, as a browser's FormData sends it. */
export function multipart(content: string | Buffer, filename = 'upload.csv'): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----trc${randomBytes(8).toString('hex')}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/csv\r\n\r\n`;
  const payload = Buffer.concat([
    Buffer.from(head),
    Buffer.isBuffer(content) ? content : Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, origin: ORIGIN } };
}

export function upload(app: FastifyInstance, cookie: string, url: string, content: string | Buffer) {
  const { payload, headers } = multipart(content);
  return app.inject({ method: 'POST', url, headers: { ...headers, cookie }, payload });
}
