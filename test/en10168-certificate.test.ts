/**
 * The embedded test-report.json's `EN10168` document, read back from real certificates, validated with ajv
 * against the public EN 10168 JSON schema (test/fixtures/en10168, its README names the source): a 3.1 issued
 * for an order (purchaser, order, delivery) of a unit with traced materials and heats, and a certificate
 * without an order. The schema asks for some things the product does not hold (decision 0067); each test
 * states exactly which, and the document with those supplied must validate. A broken document must not.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import Ajv2019, { type ErrorObject } from 'ajv/dist/2019';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsUpdateInput } from '../src/shared/contract/settings';
import { rowsOf } from '../src/server/db/client';
import { getSettings, setLogo, updateSettings } from '../src/server/modules/settings/settings.service';
import { issueReport } from '../src/server/modules/reports/issue';
import { findRangeBySerial } from '../src/server/modules/serials/serials.service';
import { buildTestApp, type TestApp } from './helpers/app';
import { staffCookie } from './helpers/catalogue';
import { release } from './helpers/deliveries';
import { certificatesOfType31, releaseRangeOf } from './helpers/inspectors';
import { addCustomer, addDelivery, post, uniq } from './helpers/orders';
import { tmpFile, unitWithRecords } from './helpers/reports';
import { png } from './helpers/images';

const schema = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, 'fixtures/en10168/schema.json'), 'utf8'));
// strict off: the published schema puts `properties` beside `oneOf` without `type`, which strict mode rejects.
const ajv = new Ajv2019({ allErrors: true, strict: false });
// ajv-formats is not a dependency: the two formats the schema uses, as their RFCs shape them.
ajv.addFormat('date', /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/);
ajv.addFormat('email', /^[^\s@]+@[^\s@]+$/);
const validate = ajv.compile(schema);
const ADDRESS = 'No. 88, Gongye 3rd Rd., Xitun Dist.\nTaichung City 407\nTaiwan';

let t: TestApp;
let staff: string;
beforeAll(async () => {
  t = await buildTestApp();
  staff = await staffCookie(t);
  await certificatesOfType31(t);
  // The manufacturer's address as an admin enters it: the printed lines, and the postcode, city and country
  // apart; and a PNG logo, the manufacturer's mark.
  const before = await getSettings(t.app.ctx.db);
  const admin = { id: null, label: 'test' };
  await updateSettings(
    t.app.ctx.db,
    admin,
    settingsUpdateInput.parse({
      ...before,
      companyAddress: ADDRESS,
      companyPostcode: '407',
      companyCity: 'Taichung',
      companyCountry: 'tw',
    }),
  );
  await setLogo(t.app.ctx.db, admin, png(120, 40));
}, 60_000);
afterAll(() => t.close());

const api = async (method: 'POST' | 'PUT', url: string, payload: object) => {
  const res = await t.app.inject({ method, url, headers: { cookie: staff }, payload });
  if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  return res.json().data;
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document read back is checked field by field
type Doc = Record<string, any>;

function embeddedJson(bytes: Buffer): Doc {
  const file = tmpFile(bytes);
  execFileSync('pdfdetach', ['-saveall', '-o', path.dirname(file), file]);
  return JSON.parse(fs.readFileSync(path.join(path.dirname(file), 'test-report.json'), 'utf8'));
}

/** A unit with passing shell and seat tests, its body and bonnet traced to heats, its range released by an inspector. */
async function tracedUnit() {
  const unit = await unitWithRecords(t, [{ testType: 'shell' }, { testType: 'seat' }]);
  const wcb = await api('POST', '/api/v1/materials', {
    specification: 'ASTM A216',
    grade: `WCB-${uniq()}`,
    ratingBasis: 'wcb',
    materialGroup: '1.1',
  });
  const heat = (part: string) =>
    api('POST', '/api/v1/heats', {
      number: `H-${part}-${uniq()}`,
      materialId: wcb.id,
      certificateNumber: `MC-${uniq()}`,
      certificateType: '3.1',
    });
  const body = await heat('body');
  const bonnet = await heat('bonnet');
  await api('PUT', `/api/v1/products/${unit.product.id}/parts`, {
    parts: [
      { part: 'body', materialId: wcb.id },
      { part: 'bonnet', materialId: wcb.id },
    ],
  });
  const range = (await findRangeBySerial(t.app.ctx.db, unit.serial))!.range;
  await api('PUT', `/api/v1/serial-ranges/${range.id}/heats`, {
    heats: [
      { part: 'body', heatId: body.id },
      { part: 'bonnet', heatId: bonnet.id },
    ],
  });
  await releaseRangeOf(t, unit.serial);
  return { unit, material: `ASTM A216 ${wcb.grade}`, heats: { body: body.number as string, bonnet: bonnet.number as string } };
}

/** The required properties the schema finds missing, as "path: property" (the other errors are its consequences). */
const missing = (errors: ErrorObject[] | null | undefined) =>
  [...new Set((errors ?? []).filter((e) => e.keyword === 'required').map((e) => `${e.instancePath}: ${e.params.missingProperty}`))].sort();

const CT = '/Certificate/CommercialTransaction';

/** The document with what the product does not hold supplied, as a reader who has it would supply it. */
function supplied(doc: Doc): Doc {
  const d = structuredClone(doc);
  const ct = d.Certificate.CommercialTransaction;
  const address = (c: Doc) => ({ Country: 'TW', ZipCode: '407', City: 'Taichung', ...c });
  ct.A01 = address(ct.A01);
  ct.A04 ??= Buffer.from('mark').toString('base64');
  ct.A06 = ct.A06 ? address(ct.A06) : address({ Name: 'Purchaser', Street: ['Street 1'] });
  ct.A07 ??= 'PO-1';
  return d;
}

describe('the EN 10168 document of the embedded data', () => {
  it('of a 3.1 issued for an order: the order, materials, heats, tests and inspector under their codes, valid against the schema', async () => {
    const { unit, material, heats } = await tracedUnit();
    const customer = await addCustomer(t.app, unit.admin, {
      address: '12 Quay Road\nKaohsiung 806',
      postcode: '806',
      city: 'Kaohsiung',
      country: 'DE',
    });
    const po = await post(t.app, unit.admin, '/api/v1/purchase-orders', {
      customerId: customer.id,
      number: `PO-${uniq()}`,
      date: '2024-04-20',
      documentType: '3.1',
      items: [{ line: 10, productId: unit.product.id, quantity: 1, buyerItemCode: 'HRC-GV-100', description: 'Gate valve' }],
    });
    const delivery = await addDelivery(t.app, unit.admin, po.id);
    await post(
      t.app,
      unit.admin,
      `/api/v1/deliveries/${delivery.id}/serials`,
      { units: [{ serial: unit.serial, line: 10, tag: 'XV-1' }] },
      200,
    );
    await release(t, unit.admin, delivery.id);
    const d = (await t.app.inject({ url: `/api/v1/deliveries/${delivery.id}`, headers: { cookie: unit.admin } })).json().data;
    const [row] = rowsOf<{ bytes: Buffer }>(await t.app.ctx.db.execute(sql`SELECT bytes FROM reports WHERE id = ${d.units[0].reportId}`));
    const json = embeddedJson(Buffer.from(row!.bytes));

    expect(json.schemaVersion).toBe('2.4');
    // The keys integrations read stay beside it.
    expect(json.A07_purchaseOrder).toEqual({ number: po.number, date: '2024-04-20' });
    const doc = json.EN10168;
    expect(doc.RefSchemaUrl).toBe('https://schemas.materialidentity.org/en10168-schemas/v0.5.0/schema.json');
    const c = doc.Certificate;
    expect(c.CertificateLanguages).toEqual(['EN']);
    expect(c.CommercialTransaction).toMatchObject({
      A02: 'EN 10204 3.1',
      A03: json.A03_documentNumber,
      A01: {
        Name: json.A01_manufacturer.name,
        Street: ['No. 88, Gongye 3rd Rd., Xitun Dist.', 'Taichung City 407', 'Taiwan'],
        ZipCode: '407',
        City: 'Taichung',
        Country: 'TW',
      },
      A04: png(120, 40).toString('base64'),
      A05: json.A01_manufacturer.name,
      A06: { Name: customer.name, Street: ['12 Quay Road', 'Kaohsiung 806'], ZipCode: '806', City: 'Kaohsiung', Country: 'DE' },
      A07: po.number,
      A09: 'HRC-GV-100',
      A97: '10',
      A98: delivery.number,
    });
    expect(c.ProductDescription.B02).toContain(`body ${material}`);
    expect(c.ProductDescription.B06).toBe(`${unit.serial}; tag XV-1`);
    expect(c.ProductDescription.B07).toBe(`${unit.serial}; body heat ${heats.body}; bonnet heat ${heats.bonnet}`);
    expect(c.ProductDescription.B08).toBe(1);
    expect(c.OtherTests.OtherProductTests.D51).toMatchObject({ Key: 'shell test pressure', Unit: 'MPa', Type: 'number' });
    expect(Number(c.OtherTests.OtherProductTests.D51.Value)).toBe(json.D51_pressureTests[0].testPressureMPa);
    expect(c.Validation.Z01).toBe(json.Z01_statementOfCompliance);
    expect(c.Validation.Z02).toBe(json.Z02_dateOfIssue.slice(0, 10));
    expect(c.Validation.Z03).toEqual({ Name: json.Z03_validation.inspectionRepresentative, Title: 'QA Manager' });

    // The flat keys carry the address's parts too.
    expect(json.A01_manufacturer).toMatchObject({ postcode: '407', city: 'Taichung', country: 'TW' });
    expect(json.A06_purchaser).toMatchObject({ postcode: '806', city: 'Kaohsiung', country: 'DE' });
    // As issued, with the manufacturer's and the purchaser's postcode, city and country given: valid.
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    const full = doc;
    // Without them (an installation that has not entered them), exactly those are missing.
    const bare = structuredClone(doc);
    for (const party of [bare.Certificate.CommercialTransaction.A01, bare.Certificate.CommercialTransaction.A06])
      for (const k of ['ZipCode', 'City', 'Country']) delete party[k];
    expect(validate(bare)).toBe(false);
    // (the other branch of the receivers' oneOf reports A06.1 missing as well)
    expect(missing(validate.errors)).toEqual(
      [
        `${CT}/A01: City`,
        `${CT}/A01: Country`,
        `${CT}/A01: ZipCode`,
        `${CT}/A06: City`,
        `${CT}/A06: Country`,
        `${CT}/A06: ZipCode`,
        `${CT}: A06.1`,
      ].sort(),
    );

    // The check can fail: a test's value as a number, a date with its time, a code outside D51–D99.
    for (const broken of [
      (x: Doc) => (x.Certificate.OtherTests.OtherProductTests.D51.Value = 1.5),
      (x: Doc) => (x.Certificate.Validation.Z02 = json.Z02_dateOfIssue),
      (x: Doc) => (x.Certificate.OtherTests.OtherProductTests.D02 = { Key: 'shell' }),
      (x: Doc) => (x.Certificate.ProductDescription.B14 = 'x'),
      (x: Doc) => delete x.Certificate.Validation.Z01,
    ]) {
      const b = structuredClone(full);
      broken(b);
      expect(validate(b)).toBe(false);
    }
  }, 120_000);

  it('of a certificate without an order: no purchaser or order, and otherwise the same codes', async () => {
    const { unit, heats } = await tracedUnit();
    const r = await issueReport(t.app.ctx.db, { serial: unit.serial, language: 'zh', publicBaseUrl: 'https://certs.example.com' });
    expect(r.status, JSON.stringify(r)).toBe('issued');
    const json = embeddedJson(r.status === 'issued' ? r.report.bytes : Buffer.alloc(0));
    const c = json.EN10168.Certificate;
    expect(c.CertificateLanguages).toEqual(['CN']);
    expect(c.CommercialTransaction).not.toHaveProperty('A06');
    expect(c.CommercialTransaction).not.toHaveProperty('A07');
    expect(c.ProductDescription.B06).toBe(unit.serial);
    expect(c.ProductDescription.B07).toBe(`${unit.serial}; body heat ${heats.body}; bonnet heat ${heats.bonnet}`);
    expect(c.Validation.Z03.Title).toBe('QA Manager');

    // A stranger's certificate names no purchaser and no order, which the schema requires: exactly those.
    expect(validate(json.EN10168)).toBe(false);
    expect(missing(validate.errors)).toEqual([`${CT}: A06`, `${CT}: A06.1`, `${CT}: A07`].sort());
    expect(validate(supplied(json.EN10168)), JSON.stringify(validate.errors)).toBe(true);
  }, 120_000);
});
