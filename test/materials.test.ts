/**
 * Materials, product parts, heats with their mill certificates, and the heats of a range's units: the
 * catalogue's rules, the certificate upload's checks, a heat of the wrong material refused, and the release
 * gate holding a 3.1 certificate whose pressure-retaining part has no heat or a heat on hold.
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import PDFDocument from 'pdfkit';
import { settingsUpdateInput } from '../src/shared/contract/settings';
import { getSettings, updateSettings } from '../src/server/modules/settings/settings.service';
import { findRangeBySerial } from '../src/server/modules/serials/serials.service';
import { issueReport } from '../src/server/modules/reports/issue';
import { buildTestApp, type TestApp } from './helpers/app';
import { multipart, staffCookie } from './helpers/catalogue';
import { adminCookie } from './helpers/machine-data';
import { poppler, tmpFile, unitWithRecords } from './helpers/reports';
import { postRequest, requestBody } from './helpers/public';
import { randomIp } from './helpers/factories';
import { linkTo, releasedDelivery } from './helpers/deliveries';
import { readZip } from './helpers/unzip';
import { releaseRangeOf } from './helpers/inspectors';

let t: TestApp;
let admin: string;
let staff: string;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await adminCookie(t);
  staff = await staffCookie(t);
});
afterAll(() => t.close());

const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, cookie = staff) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload !== undefined ? { payload: payload as object } : {}) });

const tag = () => randomBytes(3).toString('hex').toUpperCase();

async function material(overrides: Record<string, unknown> = {}) {
  const res = await api('POST', '/api/v1/materials', {
    specification: 'ASTM A216',
    grade: `WCB-${tag()}`,
    ratingBasis: 'wcb',
    materialGroup: '1.1',
    ...overrides,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: string; specification: string; grade: string };
}

async function heat(materialId: string, overrides: Record<string, unknown> = {}) {
  const res = await api('POST', '/api/v1/heats', {
    number: `H${tag()}`,
    materialId,
    supplier: 'Foundry Co.',
    certificateNumber: `MC-${tag()}`,
    certificateType: '3.1',
    date: '2024-03-01',
    ...overrides,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: string; number: string; status: string };
}

/** A small real PDF, as a mill certificate would be. */
async function pdfBytes(text = 'Mill certificate'): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4' });
  const parts: Buffer[] = [];
  doc.on('data', (c: Buffer) => parts.push(c));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  doc.text(text);
  doc.end();
  await done;
  return Buffer.concat(parts);
}

function upload(heatId: string, bytes: Buffer, cookie = staff, name = 'mill.pdf') {
  const body = multipart(bytes, name);
  return t.app.inject({
    method: 'PUT',
    url: `/api/v1/heats/${heatId}/certificate`,
    headers: { cookie, ...body.headers },
    payload: body.payload,
  });
}

async function documentType(type: 'test-report-2.2' | 'inspection-certificate-3.1') {
  const before = await getSettings(t.app.ctx.db);
  await updateSettings(
    t.app.ctx.db,
    { id: null, label: 'test' },
    settingsUpdateInput.parse({ ...before, documentType: type, inspectorName: before.inspectorName || 'Lin, Inspector' }),
  );
}

describe('the material catalogue', () => {
  it('keeps materials, refuses a second of the same specification and grade, and bad input with field errors', async () => {
    const m = await material({ grade: 'CF8M-X1', ratingBasis: 'sus' });
    const again = await api('POST', '/api/v1/materials', { specification: 'astm a216', grade: 'cf8m-x1', ratingBasis: 'sus' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.fields[0].field).toBe('grade');

    const bad = await api('POST', '/api/v1/materials', { specification: '', grade: 'A\u0007', ratingBasis: 'steel' });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .error.fields.map((f: { field: string }) => f.field)
        .sort(),
    ).toEqual(['grade', 'ratingBasis', 'specification']);

    const list = await api('GET', '/api/v1/materials');
    expect(list.json().data.map((x: { id: string }) => x.id)).toContain(m.id);
    const edited = await api('PUT', `/api/v1/materials/${m.id}`, {
      specification: 'ASTM A351',
      grade: 'CF8M-X1',
      ratingBasis: 'sus',
      materialGroup: '2.2',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data).toMatchObject({ specification: 'ASTM A351', materialGroup: '2.2' });

    await heat(m.id);
    const del = await api('DELETE', `/api/v1/materials/${m.id}`);
    expect(del.statusCode).toBe(409);
    expect((await api('GET', '/api/v1/materials', undefined, '')).statusCode).toBe(401);
  });

  it("stores a product's parts, each with an existing material", async () => {
    const m = await material();
    const { product } = await unitWithRecords(t, []);
    const wrong = await api('PUT', `/api/v1/products/${product.id}/parts`, {
      parts: [{ part: 'body', materialId: '00000000-0000-4000-8000-000000000000' }],
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields[0].field).toBe('parts.0.materialId');
    const twice = await api('PUT', `/api/v1/products/${product.id}/parts`, {
      parts: [
        { part: 'body', materialId: m.id },
        { part: 'body', materialId: m.id },
      ],
    });
    expect(twice.statusCode).toBe(400);
    const ok = await api('PUT', `/api/v1/products/${product.id}/parts`, {
      parts: [
        { part: 'stem', materialId: m.id },
        { part: 'body', materialId: m.id },
      ],
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.map((p: { part: string }) => p.part)).toEqual(['body', 'stem']);
    expect((await api('GET', `/api/v1/products/${product.id}/parts`)).json().data).toHaveLength(2);
  });
});

describe('heats and their mill certificates', () => {
  it('keeps a heat, asks why it is on hold, and stores the same heat sent twenty times at once once', async () => {
    const m = await material();
    const noNote = await api('POST', '/api/v1/heats', { number: 'H-1', materialId: m.id, certificateType: '3.1', status: 'hold' });
    expect(noNote.statusCode).toBe(400);
    expect(noNote.json().error.fields[0].field).toBe('holdNote');

    const body = { number: `H${tag()}`, materialId: m.id, certificateType: '3.1' };
    const answers = await Promise.all(Array.from({ length: 20 }, () => api('POST', '/api/v1/heats', body)));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(19);
    const list = await api('GET', `/api/v1/heats?materialId=${m.id}&q=${body.number}`);
    expect(list.json().data.total).toBe(1);
  });

  it('takes a PDF with its SHA-256 and gives the same bytes back; refuses what is not a PDF, or too large, before storing it', async () => {
    const m = await material();
    const h = await heat(m.id);
    const pdf = await pdfBytes();

    const notPdf = await upload(h.id, Buffer.from('GIF89a this is not a pdf %%EOF'));
    expect(notPdf.statusCode).toBe(415);
    const large = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(21 * 1024 * 1024, 0x20), Buffer.from('\n%%EOF\n')]);
    const tooLarge = await upload(h.id, large);
    expect(tooLarge.statusCode).toBe(413);
    expect((await api('GET', `/api/v1/heats/${h.id}`)).json().data.file).toBeNull();

    const ok = await upload(h.id, pdf);
    expect(ok.statusCode, ok.body).toBe(200);
    const sha = createHash('sha256').update(pdf).digest('hex');
    expect(ok.json().data.file).toMatchObject({ name: 'mill.pdf', bytes: pdf.length, sha256: sha });

    const back = await api('GET', `/api/v1/heats/${h.id}/certificate`);
    expect(back.statusCode).toBe(200);
    expect(back.headers['content-type']).toContain('application/pdf');
    expect(createHash('sha256').update(back.rawPayload).digest('hex')).toBe(sha);
    expect((await api('GET', `/api/v1/heats/${h.id}/certificate`, undefined, '')).statusCode).toBe(401);

    // A later failed upload leaves the stored certificate as it was.
    await upload(h.id, Buffer.from('not a pdf'));
    expect((await api('GET', `/api/v1/heats/${h.id}`)).json().data.file.sha256).toBe(sha);
  });

  it('stores a certificate of several pieces whole', async () => {
    const m = await material();
    const h = await heat(m.id);
    const big = Buffer.concat([await pdfBytes(), Buffer.from('\n%'), randomBytes(2_500_000), Buffer.from('\n%%EOF\n')]);
    const ok = await upload(h.id, big);
    expect(ok.statusCode, ok.body).toBe(200);
    const back = await api('GET', `/api/v1/heats/${h.id}/certificate`);
    expect(Buffer.compare(back.rawPayload, big)).toBe(0);
  });
});

describe('the heats of a range and the release gate', () => {
  it('refuses a heat of another material than the product names for the part, naming both', async () => {
    const wcb = await material({ grade: `WCB-${tag()}` });
    const cf8m = await material({ specification: 'ASTM A351', grade: `CF8M-${tag()}`, ratingBasis: 'sus' });
    const { serial, product } = await unitWithRecords(t, []);
    await api('PUT', `/api/v1/products/${product.id}/parts`, { parts: [{ part: 'body', materialId: wcb.id }] });
    const range = (await findRangeBySerial(t.app.ctx.db, serial))!.range;
    const wrongHeat = await heat(cf8m.id);
    const res = await api('PUT', `/api/v1/serial-ranges/${range.id}/heats`, { heats: [{ part: 'body', heatId: wrongHeat.id }] });
    expect(res.statusCode).toBe(400);
    const f = res.json().error.fields[0];
    expect(f.field).toBe('heats.0.heatId');
    expect(f.message).toContain(wrongHeat.number);
    expect(f.message).toContain(`ASTM A351 ${cf8m.grade}`);
    expect(f.message).toContain(`ASTM A216 ${wcb.grade}`);

    const good = await heat(wcb.id);
    const ok = await api('PUT', `/api/v1/serial-ranges/${range.id}/heats`, { heats: [{ part: 'body', heatId: good.id }] });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.heats[0]).toMatchObject({ part: 'body', number: good.number, status: 'released' });
    // The body's heat names the material the range is rated for.
    expect((await findRangeBySerial(t.app.ctx.db, serial))!.range.bodyMaterial).toBe('wcb');
  });

  it('holds a 3.1 certificate for a missing heat and a heat on hold, and prints the materials once released', async () => {
    await documentType('inspection-certificate-3.1');
    try {
      const wcb = await material({ grade: `WCB-${tag()}` });
      const { serial, product } = await unitWithRecords(t, [{ testType: 'shell' }, { testType: 'seat' }]);
      // An authorised inspector has released the range: only its materials can hold it here.
      await releaseRangeOf(t, serial);
      await api('PUT', `/api/v1/products/${product.id}/parts`, {
        parts: [
          { part: 'body', materialId: wcb.id },
          { part: 'bonnet', materialId: wcb.id },
          { part: 'stem', materialId: wcb.id },
        ],
      });
      const issue = (language: 'en' | 'zh' = 'en') =>
        issueReport(t.app.ctx.db, { serial, language, publicBaseUrl: 'https://certs.example.com' });
      const first = await issue();
      expect(first.status).toBe('held');
      expect(first.status === 'held' && first.held).toEqual([
        { kind: 'untraced', part: 'body', heat: null },
        { kind: 'untraced', part: 'bonnet', heat: null },
      ]);

      const range = (await findRangeBySerial(t.app.ctx.db, serial))!.range;
      const body = await heat(wcb.id);
      const bonnet = await heat(wcb.id, { status: 'hold', holdNote: 'Hardness above the limit' });
      await api('PUT', `/api/v1/serial-ranges/${range.id}/heats`, {
        heats: [
          { part: 'body', heatId: body.id },
          { part: 'bonnet', heatId: bonnet.id },
        ],
      });
      const second = await issue();
      expect(second.status === 'held' && second.held).toEqual([{ kind: 'untraced', part: 'bonnet', heat: bonnet.number }]);

      // Released: the certificate is issued and prints each part, its material, heat and mill certificate.
      await api('PUT', `/api/v1/heats/${bonnet.id}`, {
        number: bonnet.number,
        materialId: wcb.id,
        certificateType: '3.2',
        certificateNumber: 'MC-BONNET',
        status: 'released',
      });
      const third = await issue();
      expect(third.status, JSON.stringify(third)).toBe('issued');
      const text = poppler('pdftotext', ['-layout', tmpFile(third.status === 'issued' ? third.report.bytes : Buffer.alloc(0)), '-']);
      expect(text).toContain('Materials');
      expect(text).toContain(body.number);
      expect(text).toContain('MC-BONNET');
      expect(text).toContain(`ASTM A216 ${wcb.grade}`);
      // The embedded data names each part's material (B02) and heat with its mill certificate (B07).
      const file = tmpFile(third.status === 'issued' ? third.report.bytes : Buffer.alloc(0));
      execFileSync('pdfdetach', ['-saveall', '-o', path.dirname(file), file]);
      const json = JSON.parse(fs.readFileSync(path.join(path.dirname(file), 'test-report.json'), 'utf8'));
      expect(json.B02_productProperties.materials).toEqual([
        { part: 'body', material: `ASTM A216 ${wcb.grade}` },
        { part: 'bonnet', material: `ASTM A216 ${wcb.grade}` },
        { part: 'stem', material: `ASTM A216 ${wcb.grade}` },
      ]);
      expect(json.B07_productIdentification.heats).toEqual([
        {
          part: 'body',
          heat: body.number,
          material: `ASTM A216 ${wcb.grade}`,
          millCertificate: { number: expect.any(String), type: 'EN 10204 3.1' },
        },
        {
          part: 'bonnet',
          heat: bonnet.number,
          material: `ASTM A216 ${wcb.grade}`,
          millCertificate: { number: 'MC-BONNET', type: 'EN 10204 3.2' },
        },
      ]);

      // Held again: the stored certificate is not served; a unit's own heat overrides its range's.
      await api('PUT', `/api/v1/heats/${body.id}`, {
        number: body.number,
        materialId: wcb.id,
        certificateType: '3.1',
        status: 'hold',
        holdNote: 'Chemistry out of limits',
      });
      const fourth = await issue();
      expect(fourth.status === 'held' && fourth.held).toEqual([{ kind: 'untraced', part: 'body', heat: body.number }]);
      const own = await heat(wcb.id);
      const csv = multipart(`serial,part,heat\r\n${serial},body,${own.number}\r\n`);
      const imported = await t.app.inject({
        method: 'POST',
        url: `/api/v1/serial-ranges/${range.id}/unit-heats`,
        headers: { cookie: staff, ...csv.headers },
        payload: csv.payload,
      });
      expect(imported.statusCode, imported.body).toBe(200);
      expect(imported.json().data).toEqual({ stored: 1, removed: 0 });
      const fifth = await issue('zh');
      expect(fifth.status).toBe('issued');
      const zh = poppler('pdftotext', ['-layout', tmpFile(fifth.status === 'issued' ? fifth.report.bytes : Buffer.alloc(0)), '-']);
      expect(zh).toContain('爐號');
      expect(zh).toContain(own.number);
      expect(zh).not.toContain(body.number);

      const exported = await api('GET', `/api/v1/serial-ranges/${range.id}/unit-heats.csv`);
      expect(exported.body).toContain(`${serial},body,${own.number}`);

      // A 2.2 test report does not trace materials: the held body heat does not hold it.
      await documentType('test-report-2.2');
      await api('PUT', `/api/v1/heats/${own.id}`, {
        number: own.number,
        materialId: wcb.id,
        certificateType: '3.1',
        status: 'hold',
        holdNote: 'x',
      });
      expect((await issue()).status).toBe('issued');
    } finally {
      await documentType('test-report-2.2');
    }
  });

  it('refuses per-serial rows outside the range, of unknown parts or heats, all or nothing', async () => {
    const m = await material();
    const { serial } = await unitWithRecords(t, []);
    const range = (await findRangeBySerial(t.app.ctx.db, serial))!.range;
    const h = await heat(m.id);
    const csv = multipart(
      `serial,part,heat\r\n${serial},body,${h.number}\r\nXX-000001,body,${h.number}\r\n${serial},wheel,${h.number}\r\n${serial},stem,NOPE\r\n`,
    );
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/serial-ranges/${range.id}/unit-heats`,
      headers: { cookie: staff, ...csv.headers },
      payload: csv.payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields.map((f: { field: string }) => f.field)).toEqual(['rows.3.serial', 'rows.4.part', 'rows.5.heat']);
    expect((await api('GET', `/api/v1/serial-ranges/${range.id}/heats`)).json().data.exceptions).toBe(0);
    expect(admin).toBeTruthy();
  });

  it('tells a visitor that a unit held only for its materials waits for them, and the held panel says which part', async () => {
    await documentType('inspection-certificate-3.1');
    try {
      const m = await material();
      const { serial, product } = await unitWithRecords(t, [{ testType: 'shell' }]);
      await releaseRangeOf(t, serial);
      await api('PUT', `/api/v1/products/${product.id}/parts`, { parts: [{ part: 'body', materialId: m.id }] });
      for (const [language, text] of [
        ['en', 'The test report waits for its material records'],
        ['zh', '測試報告尚待材質紀錄完成'],
      ] as const) {
        const res = await postRequest(t.app, requestBody({ serials: [serial], language }), { headers: { 'accept-language': language } });
        expect(res.statusCode, res.body).toBe(200);
        const [r] = res.json().data.results;
        expect(r).toMatchObject({ serial, outcome: 'held', pdfPath: null });
        expect(r.message).toContain(text);
      }
      const today = new Date().toISOString().slice(0, 10);
      const held = await api('GET', `/api/v1/quality/held-requests?from=${today}&to=${today}`);
      expect(held.statusCode, held.body).toBe(200);
      const item = held.json().data.items.find((x: { serial: string }) => x.serial === serial);
      expect(item.heldFor).toEqual([
        { testType: null, kind: 'untraced', part: 'body', heat: null, testedAt: null, bench: null, reasons: [] },
      ]);
    } finally {
      await documentType('test-report-2.2');
    }
  });

  it("carries each heat's mill certificate once in a delivery's ZIP, listed in its index", async () => {
    const m = await material();
    const r = await releasedDelivery(t, { units: 2 });
    const range = (await findRangeBySerial(t.app.ctx.db, r.units[0]!.serial))!.range;
    const body = await heat(m.id);
    const stem = await heat(m.id);
    const noFile = await heat(m.id);
    const pdf = await pdfBytes('Heat body');
    expect((await upload(body.id, pdf)).statusCode).toBe(200);
    expect((await upload(stem.id, await pdfBytes('Heat stem'))).statusCode).toBe(200);
    await api('PUT', `/api/v1/serial-ranges/${range.id}/heats`, {
      heats: [
        { part: 'body', heatId: body.id },
        { part: 'bonnet', heatId: body.id },
        { part: 'stem', heatId: stem.id },
        { part: 'bolting', heatId: noFile.id },
      ],
    });
    const { token } = await linkTo(t, r.delivery.id);
    const index = (await t.app.inject({ url: `/api/v1/public/deliveries/${token}`, remoteAddress: randomIp() })).json().data;
    expect(index.schemaVersion).toBe(2);
    expect(index.millCertificates.map((x: { heat: string }) => x.heat).sort()).toEqual([body.number, stem.number].sort());
    const listed = index.millCertificates.find((x: { heat: string }) => x.heat === body.number);
    expect(listed).toMatchObject({
      material: `ASTM A216 ${m.grade}`,
      certificateType: '3.1',
      file: `mill-certificates/${body.number}.pdf`,
      bytes: pdf.length,
    });
    const zip = await t.app.inject({ url: `/api/v1/public/deliveries/${token}.zip`, remoteAddress: randomIp() });
    expect(zip.statusCode).toBe(200);
    const entries = readZip(zip.rawPayload);
    const mills = entries.filter((e) => e.name.startsWith('mill-certificates/'));
    expect(mills.map((e) => e.name).sort()).toEqual(index.millCertificates.map((x: { file: string }) => x.file).sort());
    const inZip = mills.find((e) => e.name === listed.file)!;
    expect(createHash('sha256').update(inZip.data).digest('hex')).toBe(listed.sha256);
  });

  it("holds a heat whose reported values lie outside its grade's cited limits, and the units made from it", async () => {
    await documentType('inspection-certificate-3.1');
    try {
      // The grade itself, whose limits are cited (src/shared/standards/material-limits.ts).
      const wcb = await material({ grade: 'WCB' });
      const inside = { chemistry: { C: 0.24, Mn: 0.85 }, tensileStrength: 512, yieldStrength: 298, elongation: 26 };
      const good = await heat(wcb.id, { properties: inside });
      expect(good.status).toBe('released');
      const res = await api('POST', '/api/v1/heats', {
        number: `H${tag()}`,
        materialId: wcb.id,
        certificateType: '3.1',
        properties: { ...inside, chemistry: { C: 0.34, Mn: 0.85 }, elongation: 20 },
      });
      expect(res.statusCode, res.body).toBe(201);
      const bad = res.json().data;
      expect(bad.status).toBe('hold');
      expect(bad.findings).toEqual([
        { property: 'C', value: 0.34, min: null, max: 0.3 },
        { property: 'elongation', value: 20, min: 22, max: null },
      ]);
      // Asking for it to be released does not release it while a value is outside.
      const again = await api('PUT', `/api/v1/heats/${bad.id}`, {
        number: bad.number,
        materialId: wcb.id,
        certificateType: '3.1',
        status: 'released',
        properties: bad.properties,
      });
      expect(again.json().data.status).toBe('hold');
      const wrong = await api('POST', '/api/v1/heats', {
        number: 'X',
        materialId: wcb.id,
        certificateType: '3.1',
        properties: { chemistry: { carbon: 1 } },
      });
      expect(wrong.statusCode).toBe(400);

      const { serial, product } = await unitWithRecords(t, [{ testType: 'shell' }]);
      await releaseRangeOf(t, serial);
      await api('PUT', `/api/v1/products/${product.id}/parts`, { parts: [{ part: 'body', materialId: wcb.id }] });
      const range = (await findRangeBySerial(t.app.ctx.db, serial))!.range;
      await api('PUT', `/api/v1/serial-ranges/${range.id}/heats`, { heats: [{ part: 'body', heatId: bad.id }] });
      const held = await issueReport(t.app.ctx.db, { serial, language: 'en', publicBaseUrl: 'https://certs.example.com' });
      expect(held.status === 'held' && held.held).toEqual([{ kind: 'untraced', part: 'body', heat: bad.number }]);
      // Corrected values (a retest the supplier certified) release it.
      const fixed = await api('PUT', `/api/v1/heats/${bad.id}`, {
        number: bad.number,
        materialId: wcb.id,
        certificateType: '3.1',
        properties: inside,
      });
      expect(fixed.json().data).toMatchObject({ status: 'released', findings: [] });
      expect((await issueReport(t.app.ctx.db, { serial, language: 'en', publicBaseUrl: 'https://certs.example.com' })).status).toBe(
        'issued',
      );
    } finally {
      await documentType('test-report-2.2');
    }
  });

  it('judges its heats again when a material becomes a grade with cited limits, and re-rates its ranges with its basis', async () => {
    // A grade without cited limits: nothing holds the heat, whatever its values.
    const m = await material({ specification: 'ASTM A182', grade: `F316-${tag()}`, ratingBasis: 'wcb' });
    const low = { chemistry: { C: 0.05, Ni: 8 }, tensileStrength: 520, yieldStrength: 210, elongation: 32 };
    const h = await heat(m.id, { properties: low });
    expect(h.status).toBe('released');
    const { serial, product } = await unitWithRecords(t, [{ testType: 'shell' }], { pressureSus: 2.5 });
    await api('PUT', `/api/v1/products/${product.id}/parts`, { parts: [{ part: 'body', materialId: m.id }] });
    const range = (await findRangeBySerial(t.app.ctx.db, serial))!.range;
    expect((await api('PUT', `/api/v1/serial-ranges/${range.id}/heats`, { heats: [{ part: 'body', heatId: h.id }] })).statusCode).toBe(200);
    expect((await findRangeBySerial(t.app.ctx.db, serial))!.range.bodyMaterial).toBe('wcb');

    // Corrected to the grade it is (A182 F316, Ni 10–14 %) and to stainless steel's rating.
    const res = await api('PUT', `/api/v1/materials/${m.id}`, {
      specification: 'ASTM A182',
      grade: 'F316',
      ratingBasis: 'sus',
      materialGroup: '2.2',
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = (await api('GET', `/api/v1/heats/${h.id}`)).json().data;
    expect(after.status).toBe('hold');
    expect(after.findings).toEqual([{ property: 'Ni', value: 8, min: 10, max: 14 }]);
    expect((await findRangeBySerial(t.app.ctx.db, serial))!.range.bodyMaterial).toBe('sus');
    const audit = await t.app.ctx.db.execute(
      sql`SELECT after FROM audit_log WHERE entity_id = ${m.id} AND action = 'update' ORDER BY id DESC LIMIT 1`,
    );
    expect((audit as unknown as { rows: Array<{ after: Record<string, unknown> }> }).rows[0]!.after.heatsHeld).toEqual([h.number]);
  });
});
