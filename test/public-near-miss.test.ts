/**
 * A public lookup that finds nothing offers the existing serial the text reads like but for its separators
 * ("Did you mean BF300-000002?"), and nothing more than that serial's own lookup would tell.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PUBLIC_LIMITS } from '../src/server/modules/public/public-limits';
import { buildTestApp, type TestApp } from './helpers/app';
import { addProduct, postRange, rangeBody, staffCookie } from './helpers/catalogue';
import { randomIp } from './helpers/factories';
import { catalogue, lookup, series } from './helpers/public';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('near-miss serials', () => {
  it('offers the serial a slip of the separator or of the case reads like, in the visitor’s language', async () => {
    const c = await catalogue(t);
    const serial = c.serial(2); // e.g. TABCDEF-000002
    const bare = serial.replace('-', '');
    const slips = [
      serial.replace('-', ' '), // a space for the dash
      bare, // no dash
      bare.toLowerCase(),
      serial.replace('-', '_'),
      serial.replace('-', '.'),
      serial.replace('-', '–'), // an en dash: no serial by the grammar at all
      serial.replace('-', '/').toLowerCase(),
    ];
    for (const typed of slips) {
      const res = await lookup(t.app, typed);
      expect(res.statusCode, typed).toBe(404);
      expect(res.json().error, typed).toEqual({
        status: 'NOT_FOUND',
        key: 'errors.serialNotFoundDidYouMean',
        message: `Serial Number Not Found. Did you mean ${serial}?`,
        params: { suggestion: serial },
      });
    }
    const zh = await lookup(t.app, serial.replace('-', ' '), { headers: { 'accept-language': 'zh-TW' } });
    expect(zh.json().error.message).toBe(`找不到序號。您是否要找 ${serial}？`);
    // The suggestion is a serial to look up; only that lookup tells its product.
    expect(zh.body).not.toContain(c.productName);
    expect((await lookup(t.app, serial)).json().data.product.name).toBe(c.productName);
  });

  it('finds series whose prefix has its own separators or none', async () => {
    const cookie = await staffCookie(t);
    const product = await addProduct(t.app, cookie);
    const letters = series().slice(0, -1); // e.g. TABCDEF
    const prefix = `${letters.slice(0, 3)}-${letters.slice(3)}/`; // TAB-CDEF/
    const res = await postRange(t.app, cookie, rangeBody(product.id, `${prefix}00000001`, `${prefix}00000050`, 50));
    expect(res.statusCode).toBe(201);
    const typed = `${letters.toLowerCase()} 00000049`;
    expect((await lookup(t.app, typed)).json().error.params).toEqual({ suggestion: `${prefix}00000049` });
  });

  it('offers the one unit a worn nameplate misread reads like: look-alike characters, a digit missed or doubled', async () => {
    const cookie = await staffCookie(t);
    const product = await addProduct(t.app, cookie);
    const letters = `Q${series()
      .slice(1, -1)
      .replace(/[OISB0158]/g, 'K')}`; // no look-alikes of its own
    const prefix = `${letters}300-`;
    const res = await postRange(t.app, cookie, rangeBody(product.id, `${prefix}000001`, `${prefix}000100`, 100));
    expect(res.statusCode).toBe(201);
    const offers = async (typed: string) => (await lookup(t.app, typed)).json().error.params?.suggestion ?? null;
    expect(await offers(`${letters}3OO-000001`)).toBe(`${prefix}000001`); // letter O for zero
    expect(await offers(`${letters}300-0000I2`)).toBe(`${prefix}000012`); // letter I for one
    expect(await offers(`${letters}300-00001`)).toBe(`${prefix}000001`); // a zero short
    expect(await offers(`${letters}300-0000042`)).toBe(`${prefix}000042`); // a zero too many
    expect(await offers(`${letters}300-00019`)).toBe(`${prefix}000019`); // a zero of the padding short
    expect(await offers(`${letters}300-0001000`)).toBe(`${prefix}000100`); // a zero too many at its end: one unit answers
    // A digit too many where two units would answer (000042 and 000044): nothing rather than a guess.
    expect(await offers(`${letters}300-0000442`)).toBeNull();
    expect(await offers(`${letters}300-0009`)).toBeNull();
  });

  it('offers a misreading of a range whose number width no range had before the first miss', async () => {
    const cookie = await staffCookie(t);
    const product = await addProduct(t.app, cookie);
    const letters = `Q${series()
      .slice(1, -1)
      .replace(/[OISB0158]/g, 'K')}`;
    // Eleven digits: a width the other tests' ranges do not use, asked for before any range has it.
    const prefix = `${letters}7-`;
    const typed = `${letters}7-0000000O003`;
    const first = await lookup(t.app, typed);
    expect(first.json().error, first.body).toEqual({
      status: 'NOT_FOUND',
      key: 'errors.serialNotFound',
      message: 'Serial Number Not Found',
    });
    const res = await postRange(t.app, cookie, rangeBody(product.id, `${prefix}00000000001`, `${prefix}00000000009`, 9));
    expect(res.statusCode).toBe(201);
    // The widths are kept like the lookup's answers: a range added anywhere reaches them within a second.
    await vi.waitFor(
      async () => {
        const again = await lookup(t.app, typed);
        expect(again.json().error.params?.suggestion, again.body).toBe(`${prefix}00000000003`);
      },
      {
        timeout: 5000,
        interval: 300,
      },
    );
  });

  it('offers nothing when no unit reads like it, and keeps saying only "not found"', async () => {
    const c = await catalogue(t);
    for (const typed of [c.serial(101), c.serial(101).replace('-', ' '), `${c.prefix.slice(0, -2)} 000002`, '???']) {
      const res = await lookup(t.app, typed);
      expect(res.statusCode, typed).toBe(404);
      expect(res.json().error, typed).toEqual({ status: 'NOT_FOUND', key: 'errors.serialNotFound', message: 'Serial Number Not Found' });
    }
  });

  it('is limited like any lookup: per address', async () => {
    const c = await catalogue(t);
    const ip = randomIp();
    const typed = (n: number) => c.serial(n).replace('-', ' ');
    for (let i = 1; i <= PUBLIC_LIMITS.lookupPerIp.max; i++) {
      expect((await lookup(t.app, typed(i), { ip })).json().error.params).toEqual({ suggestion: c.serial(i) });
    }
    const over = await lookup(t.app, typed(99), { ip });
    expect(over.statusCode).toBe(429);
    expect(over.body).not.toContain(c.serial(99));
  });
});
