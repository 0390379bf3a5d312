/**
 * Settings: who may read and change them, every field rule, the terms version, the logo checked by its
 * content, the signing certificate (generated on first use, or a company PKCS#12), and the audit log, which
 * like every answer never holds the private key or the password.
 */
import forge from 'node-forge';
import { png } from './helpers/images';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSelfSigned } from '../src/server/lib/signing/certificate';
import { issueReport } from '../src/server/modules/reports/issue';
import { buildTestApp, type TestApp } from './helpers/app';
import { ORIGIN, staffCookie } from './helpers/catalogue';
import { poppler, tmpFile, unitWithRecords } from './helpers/reports';
import { inspectorCookie, releaseRangeOf } from './helpers/inspectors';

let t: TestApp;
let admin: string;
let staff: string;

const body = (over: Record<string, unknown> = {}) => ({
  companyName: 'Acme Valve Co., Ltd.',
  companyAddress: 'No. 1, Industrial Rd.\nTaichung, Taiwan',
  termsEn: 'Terms v1',
  termsZh: '條款 v1',
  statementEn: 'We certify the valve passed.',
  statementZh: '茲證明閥門合格。',
  footerEn: 'Acme QA',
  footerZh: '艾克米品保',
  documentType: 'test-report-2.2',
  inspectorName: '',
  ...over,
});

function multipartBody(parts: Array<{ name: string; value: Buffer | string; filename?: string; type?: string }>) {
  const boundary = `----trc${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disp = `form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}`;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: ${disp}\r\n${p.filename ? `Content-Type: ${p.type ?? 'application/octet-stream'}\r\n` : ''}\r\n`,
      ),
    );
    chunks.push(Buffer.isBuffer(p.value) ? p.value : Buffer.from(p.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, origin: ORIGIN } };
}

const put = (url: string, cookie: string, payload: unknown) =>
  t.app.inject({ method: 'PUT', url, headers: { cookie, origin: ORIGIN }, payload: payload as object });
const upload = (url: string, cookie: string, parts: Parameters<typeof multipartBody>[0]) => {
  const m = multipartBody(parts);
  return t.app.inject({ method: 'PUT', url, headers: { ...m.headers, cookie }, payload: m.payload });
};

function pkcs12(password: string, companyName: string): Buffer {
  const m = generateSelfSigned(companyName);
  const asn = forge.pkcs12.toPkcs12Asn1(forge.pki.privateKeyFromPem(m.keyPem), [forge.pki.certificateFromPem(m.certPem)], password, {
    algorithm: '3des',
  });
  return Buffer.from(forge.asn1.toDer(asn).getBytes(), 'binary');
}

async function auditRows(entity = 'settings'): Promise<Array<Record<string, unknown>>> {
  const r = await t.app.ctx.db.execute(sql`select entity_id, action, before, after from audit_log where entity = ${entity} order by id`);
  return (r as unknown as { rows: Array<Record<string, unknown>> }).rows;
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await staffCookie(t, { role: 'admin' });
  staff = await staffCookie(t);
});
afterAll(async () => {
  await t?.close();
});

describe('settings', () => {
  it('lets staff read and only admins change them; anonymous visitors neither', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/settings', headers: { cookie: staff } })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/settings' })).statusCode).toBe(401);
    expect((await put('/api/v1/settings', staff, body())).statusCode).toBe(403);
    expect((await upload('/api/v1/settings/logo', staff, [{ name: 'file', value: png(4, 4), filename: 'l.png' }])).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/v1/settings/certificate/generate', headers: { cookie: staff, origin: ORIGIN } }))
        .statusCode,
    ).toBe(403);
  });

  it('saves every field, versions the terms only when they change, and audits what changed', async () => {
    const first = await put('/api/v1/settings', admin, body());
    expect(first.statusCode).toBe(200);
    const v1 = first.json().data.termsVersion as number;
    expect(first.json().data).toMatchObject({ companyName: 'Acme Valve Co., Ltd.', termsZh: '條款 v1', documentType: 'test-report-2.2' });
    const same = await put('/api/v1/settings', admin, body({ footerEn: 'Acme Quality' }));
    expect(same.json().data.termsVersion).toBe(v1);
    const changed = await put('/api/v1/settings', admin, body({ footerEn: 'Acme Quality', termsZh: '條款 v2' }));
    expect(changed.json().data.termsVersion).toBe(v1 + 1);
    const pub = await t.app.inject({ method: 'GET', url: '/api/v1/public/settings' });
    expect(pub.json().data).toMatchObject({
      companyName: 'Acme Valve Co., Ltd.',
      terms: { en: 'Terms v1', zh: '條款 v2' },
      termsVersion: v1 + 1,
    });
    const last = (await auditRows()).at(-1)!;
    expect(last.before).toEqual({ termsZh: '條款 v1', termsVersion: v1 });
    expect(last.after).toEqual({ termsZh: '條款 v2', termsVersion: v1 + 1 });
  });

  it('names each broken field', async () => {
    const res = await put('/api/v1/settings', admin, body({ companyName: ' ', documentType: '2.2', termsEn: 'x'.repeat(20_001) }));
    expect(res.statusCode).toBe(400);
    const fields = (res.json().error.fields as Array<{ field: string }>).map((f) => f.field).sort();
    expect(fields).toEqual(['companyName', 'documentType', 'termsEn']);
    const inspector = await put('/api/v1/settings', admin, body({ documentType: 'inspection-certificate-3.1', inspectorName: '' }));
    expect(inspector.statusCode).toBe(400);
    expect(inspector.json().error.fields).toEqual([
      expect.objectContaining({ field: 'inspectorName', key: 'settings.validation.inspectorRequired' }),
    ]);
    expect((await put('/api/v1/settings', admin, [body()])).statusCode).toBe(400);
  });

  it('accepts a PNG logo by its content and refuses other content, whatever the file is called', async () => {
    const ok = await upload('/api/v1/settings/logo', admin, [
      { name: 'file', value: png(120, 40), filename: 'logo.gif', type: 'image/gif' },
    ]);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.logo).toMatchObject({ type: 'image/png' });
    const pubLogo = await t.app.inject({ method: 'GET', url: '/api/v1/public/logo' });
    expect(pubLogo.headers['content-type']).toBe('image/png');
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'binary');
    const refused = await upload('/api/v1/settings/logo', admin, [{ name: 'file', value: gif, filename: 'logo.png', type: 'image/png' }]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields[0]).toMatchObject({ field: 'file', key: 'settings.logoType' });
    const fake = Buffer.concat([png(2, 2).subarray(0, 20), Buffer.alloc(50, 7)]);
    const broken = await upload('/api/v1/settings/logo', admin, [{ name: 'file', value: fake, filename: 'logo.png' }]);
    expect(broken.json().error.fields[0].key).toBe('settings.logoUnreadable');
    const big = Buffer.concat([png(2, 2), Buffer.alloc(1024 * 1024)]);
    const tooLarge = await upload('/api/v1/settings/logo', admin, [{ name: 'file', value: big, filename: 'logo.png' }]);
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().error.fields[0].key).toBe('settings.logoTooLarge');
    const none = await upload('/api/v1/settings/logo', admin, [{ name: 'other', value: 'x' }]);
    expect(none.json().error.fields[0].key).toBe('settings.logoMissing');
    // Still the PNG: refused uploads changed nothing.
    const now = await t.app.inject({ method: 'GET', url: '/api/v1/settings', headers: { cookie: staff } });
    expect(now.json().data.logo.sha256).toBe(ok.json().data.logo.sha256);
  });

  it('generates a self-signed certificate on first use and shows its subject, expiry and fingerprint', async () => {
    const u = await unitWithRecords(t, [{ testType: 'shell' }]);
    const r = await issueReport(t.app.ctx.db, { serial: u.serial, language: 'en', publicBaseUrl: t.app.ctx.config.publicBaseUrl });
    expect(r.status).toBe('issued');
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/settings', headers: { cookie: staff } });
    const cert = res.json().data.certificate;
    expect(cert).toMatchObject({ source: 'generated', selfSigned: true });
    expect(cert.subject).toContain('Acme Valve Co., Ltd.');
    expect(new Date(cert.notAfter).getTime()).toBeGreaterThan(Date.now() + 9 * 365 * 86400_000);
    expect(cert.fingerprintSha256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(res.body).not.toMatch(/PRIVATE KEY|keyPem|certPem/);
    const created = (await auditRows()).find((r) => r.entity_id === 'certificate' && r.action === 'create');
    expect(created?.after).toMatchObject({ source: 'generated', fingerprintSha256: cert.fingerprintSha256 });
  });

  it('makes a readable certificate for a company name in Chinese', async () => {
    await put('/api/v1/settings', admin, body({ companyName: '艾克米閥門股份有限公司' }));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/settings/certificate/generate',
      headers: { cookie: admin, origin: ORIGIN },
    });
    expect(res.json().data.certificate.subject).toBe('CN=艾克米閥門股份有限公司 (document signing), O=艾克米閥門股份有限公司');
    await put('/api/v1/settings', admin, body());
  });

  it('answers uploads sent the wrong way with a clear error, never a 500', async () => {
    expect((await put('/api/v1/settings/logo', admin, { file: 'x' })).statusCode).toBe(415);
    const noFile = await upload('/api/v1/settings/certificate', admin, [{ name: 'password', value: 'x' }]);
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().error.fields[0]).toMatchObject({ field: 'file', key: 'settings.certificateMissing' });
    const big = await upload('/api/v1/settings/certificate', admin, [
      { name: 'file', value: Buffer.alloc(70 * 1024, 1), filename: 'x.p12' },
    ]);
    expect(big.statusCode).toBe(413);
  });

  it('takes the company PKCS#12 with its password, signs new reports with it, and keeps key and password out of answers and the audit log', async () => {
    const p12 = pkcs12('s3cret-pw', 'Acme Signing Dept');
    const wrong = await upload('/api/v1/settings/certificate', admin, [
      { name: 'file', value: p12, filename: 'company.p12' },
      { name: 'password', value: 'nope' },
    ]);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields[0]).toMatchObject({ field: 'password', key: 'settings.certificatePassword' });
    const junk = await upload('/api/v1/settings/certificate', admin, [
      { name: 'file', value: Buffer.from('not a p12'), filename: 'x.p12' },
      { name: 'password', value: '' },
    ]);
    expect(junk.json().error.fields[0]).toMatchObject({ field: 'file', key: 'settings.certificateUnreadable' });
    const ok = await upload('/api/v1/settings/certificate', admin, [
      { name: 'file', value: p12, filename: 'company.p12' },
      { name: 'password', value: 's3cret-pw' },
    ]);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.certificate).toMatchObject({ source: 'uploaded' });
    expect(ok.json().data.certificate.subject).toContain('Acme Signing Dept');
    expect(ok.body).not.toMatch(/PRIVATE KEY|s3cret-pw/);

    const u = await unitWithRecords(t, [{ testType: 'shell' }]);
    const r = await issueReport(t.app.ctx.db, { serial: u.serial, language: 'zh', publicBaseUrl: t.app.ctx.config.publicBaseUrl });
    if (r.status !== 'issued') throw new Error(r.status);
    const sig = poppler('pdfsig', [tmpFile(r.report.bytes)]);
    expect(sig).toContain('Acme Signing Dept');
    expect(sig).toContain('Signature is Valid');

    const rows = JSON.stringify(await auditRows());
    expect(rows).not.toMatch(/PRIVATE KEY|s3cret-pw|BEGIN CERTIFICATE/);
    expect(rows).toContain(ok.json().data.certificate.fingerprintSha256);

    const regen = await t.app.inject({
      method: 'POST',
      url: '/api/v1/settings/certificate/generate',
      headers: { cookie: admin, origin: ORIGIN },
    });
    expect(regen.json().data.certificate.source).toBe('generated');
  });

  it('prints the settings on the report: company, logo, statement, footer, and the 3.1 inspector', async () => {
    await put(
      '/api/v1/settings',
      admin,
      body({
        documentType: 'inspection-certificate-3.1',
        inspectorName: 'Lin Mei-Hua',
        statementEn: 'Statement from settings.',
        footerEn: 'Footer from settings',
      }),
    );
    const u = await unitWithRecords(t, [{ testType: 'shell' }]);
    // A 3.1 is issued for a range an authorised inspector released: here the one Settings name.
    const held = await issueReport(t.app.ctx.db, { serial: u.serial, language: 'en', publicBaseUrl: t.app.ctx.config.publicBaseUrl });
    expect(held).toEqual({ status: 'held', held: [{ testType: null, kind: 'unreleased' }] });
    await releaseRangeOf(t, u.serial, await inspectorCookie(t, 'Lin Mei-Hua', 'QA Manager'));
    const r = await issueReport(t.app.ctx.db, { serial: u.serial, language: 'en', publicBaseUrl: t.app.ctx.config.publicBaseUrl });
    if (r.status !== 'issued') throw new Error(r.status);
    const text = poppler('pdftotext', ['-layout', tmpFile(r.report.bytes), '-']);
    expect(text).toContain('Inspection Certificate');
    expect(text).toContain('EN 10204 type 3.1');
    expect(text).toContain('Acme Valve Co., Ltd.');
    expect(text).toContain('Taichung, Taiwan');
    expect(text).toContain('Statement from settings.');
    expect(text).toContain('Footer from settings');
    expect(text).toContain('Validated by the authorised inspection representative: Lin Mei-Hua, QA Manager');
    // The signature carries the representative's name (its /Name entry; pdfsig prints the certificate's).
    expect(r.report.bytes.toString('latin1')).toContain('/Name (Lin Mei-Hua)');
    expect(poppler('pdfimages', ['-list', tmpFile(r.report.bytes)])).toMatch(/\b120\s+40\b/);
  });
});
