/**
 * Uploads are checked for what they cost before anything expensive runs: the logo's pixel size from its
 * header (a small file declaring a huge image), a PKCS#12 file's key-derivation rounds from its ASN.1, and
 * the certificate's RSA key length.
 */
import { generateKeyPairSync } from 'node:crypto';
import forge from 'node-forge';
import { png } from './helpers/images';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { largestIterationCount, MAX_PKCS12_ITERATIONS } from '../src/server/lib/signing/pkcs12-cost';
import { LOGO_MAX_PIXELS } from '../src/server/modules/settings/settings.service';
import { imageSize } from '../src/server/lib/image-size';
import { translate } from '../src/shared/i18n/index';
import { buildTestApp, type TestApp } from './helpers/app';
import { ORIGIN, staffCookie } from './helpers/catalogue';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await staffCookie(t, { role: 'admin' });
});
afterAll(() => t.close());

function upload(url: string, parts: Array<{ name: string; value: Buffer | string; filename?: string }>, language = 'en') {
  const boundary = `----trc${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disp = `form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}`;
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: ${disp}\r\n${p.filename ? 'Content-Type: application/octet-stream\r\n' : ''}\r\n`),
    );
    chunks.push(Buffer.isBuffer(p.value) ? p.value : Buffer.from(p.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return t.app.inject({
    method: 'PUT',
    url,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, origin: ORIGIN, cookie: admin, 'accept-language': language },
    payload: Buffer.concat(chunks),
  });
}

/** A JPEG's first segments only: SOI, a baseline frame header declaring `width` × `height`, EOI. */
function jpegHeader(width: number, height: number): Buffer {
  const sof = Buffer.from([
    0xff,
    0xc0,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 255,
    width >> 8,
    width & 255,
    0x03,
    1,
    0x22,
    0,
    2,
    0x11,
    1,
    3,
    0x11,
    1,
  ]);
  return Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00]), sof, Buffer.from([0xff, 0xd9])]);
}

function p12Of(bits: number, password: string, count?: number): Buffer {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 365 * 86_400_000);
  cert.setSubject([{ name: 'commonName', value: 'Upload Test' }]);
  cert.setIssuer([{ name: 'commonName', value: 'Upload Test' }]);
  const key = forge.pki.privateKeyFromPem(keyPem);
  cert.sign(key, forge.md.sha256.create());
  const asn = forge.pkcs12.toPkcs12Asn1(key, [cert], password, { algorithm: '3des', ...(count ? { count } : {}) });
  return Buffer.from(forge.asn1.toDer(asn).getBytes(), 'binary');
}

describe('the logo', () => {
  it('reads the pixel size from the header of a PNG and a JPEG', () => {
    expect(imageSize(png(3, 2), 'image/png')).toEqual({ width: 3, height: 2 });
    expect(imageSize(jpegHeader(640, 480), 'image/jpeg')).toEqual({ width: 640, height: 480 });
  });

  it('refuses an image wider or taller than the maximum, naming the field, in en and zh', async () => {
    const wide = await upload('/api/v1/settings/logo', [{ name: 'file', value: png(LOGO_MAX_PIXELS + 1, 1), filename: 'logo.png' }]);
    expect(wide.statusCode).toBe(400);
    expect(wide.json().error.fields[0]).toMatchObject({ field: 'file', key: 'limits.logoDimensions' });
    expect(wide.json().error.fields[0].message).toContain('2001 × 1');
    const jpeg = await upload(
      '/api/v1/settings/logo',
      [{ name: 'file', value: jpegHeader(15_000, 15_000), filename: 'logo.jpg' }],
      'zh-TW',
    );
    expect(jpeg.statusCode).toBe(400);
    expect(jpeg.json().error.fields[0]).toMatchObject({ field: 'file', key: 'limits.logoDimensions' });
    // The signed-in admin reads English; the same field error in Chinese:
    const f = jpeg.json().error.fields[0];
    expect(translate('zh', f.key, f.params)).toMatch(/15000 × 15000 像素.*2000/);
  });

  it('refuses a small PNG that declares 15000 × 15000 pixels before decoding it', async () => {
    const bomb = png(1, 1);
    bomb.writeUInt32BE(15_000, 16);
    bomb.writeUInt32BE(15_000, 20);
    const res = await upload('/api/v1/settings/logo', [{ name: 'file', value: bomb, filename: 'logo.png' }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields[0].key).toBe('limits.logoDimensions');
  });

  it('takes a logo at the maximum', async () => {
    const res = await upload('/api/v1/settings/logo', [{ name: 'file', value: png(LOGO_MAX_PIXELS, 20), filename: 'logo.png' }]);
    expect(res.statusCode).toBe(200);
  });
});

describe('the signing certificate', () => {
  it('reads the rounds a PKCS#12 file asks for', () => {
    expect(largestIterationCount(p12Of(2048, 'pw'))).toBe(2048);
  });

  it('refuses a file asking for millions of rounds before running any, naming the field', async () => {
    // Made with 32,768 rounds (three DER bytes, 00 80 00), then each count raised to 8,388,607 (7F FF FF):
    // forge would run them all before finding the MAC wrong.
    const p12 = p12Of(2048, 'pw', 32_768);
    const patched = Buffer.from(p12.toString('latin1').replaceAll('\x02\x03\x00\x80\x00', '\x02\x03\x7f\xff\xff'), 'latin1');
    expect(largestIterationCount(patched)).toBeGreaterThan(MAX_PKCS12_ITERATIONS);
    const res = await upload('/api/v1/settings/certificate', [
      { name: 'file', value: patched, filename: 'slow.p12' },
      { name: 'password', value: 'pw' },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields[0]).toMatchObject({ field: 'file', key: 'limits.pkcs12Iterations' });
  });

  it('refuses an RSA key under 2048 bits, in en and zh', async () => {
    const p12 = p12Of(1024, 'pw');
    const en = await upload('/api/v1/settings/certificate', [
      { name: 'file', value: p12, filename: 'short.p12' },
      { name: 'password', value: 'pw' },
    ]);
    expect(en.statusCode).toBe(400);
    expect(en.json().error.fields[0]).toMatchObject({ field: 'file', key: 'limits.rsaKeyTooShort' });
    expect(en.json().error.fields[0].message).toMatch(/1024 bits.*2048/);
    const zh = await upload(
      '/api/v1/settings/certificate',
      [
        { name: 'file', value: p12, filename: 'short.p12' },
        { name: 'password', value: 'pw' },
      ],
      'zh-TW',
    );
    const f = zh.json().error.fields[0];
    expect(translate('zh', f.key, f.params)).toMatch(/1024 位元.*2048/);
    const fine = await upload('/api/v1/settings/certificate', [
      { name: 'file', value: p12Of(2048, 'pw'), filename: 'ok.p12' },
      { name: 'password', value: 'pw' },
    ]);
    expect(fine.statusCode).toBe(200);
  });
});
