/**
 * Releasing a delivery: the gate first (409 with the held units), the certificates naming the order issued in
 * the background and recorded once each, the link written once, a stop halfway resumed, a unit held after the
 * gate stopping the release, and a tag corrected after release giving a new certificate version.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/server/db/client';
import { Wakeup } from '../src/server/lib/wakeup';
import { issueReport } from '../src/server/modules/reports/issue';
import { releaseRound, type ReleaseWorkerDeps } from '../src/server/modules/orders/release-worker';
import { sendDeliveryLink } from '../src/server/modules/orders/delivery-links';
import { evaluateAlerts } from '../src/server/modules/alerts/evaluator';
import { silentSinks } from '../src/server/modules/alerts/raise';
import { buildTestApp, type TestApp } from './helpers/app';
import { postBatch, record } from './helpers/machine-data';
import { addCustomer, addDelivery, post, uniq } from './helpers/orders';
import { poppler, tmpFile, unitWithRecords, type Unit } from './helpers/reports';
import { releaseRangeOf } from './helpers/inspectors';

let t: TestApp;
let unit: Unit;
let prefix: string;
let next = 100;
const links: Array<{ deliveryId: string; recipients: { email: string }[] }> = [];
beforeAll(async () => {
  t = await buildTestApp();
  unit = await unitWithRecords(t, [{ testType: 'shell' }, { testType: 'seat' }]);
  prefix = unit.serial.slice(0, -6);
  // The orders here ask for 3.1 certificates: an authorised inspector releases the range.
  await releaseRangeOf(t, unit.serial);
}, 60_000);
afterAll(() => t.close());

function deps(overrides: Partial<ReleaseWorkerDeps> = {}): ReleaseWorkerDeps {
  return {
    db: t.app.ctx.db,
    issue: (db, input) => issueReport(db, { ...input, publicBaseUrl: t.app.ctx.config.publicBaseUrl }),
    sendLink: async (_tx, input) => {
      links.push(input);
    },
    wakeup: new Wakeup(),
    log: t.app.log,
    kickMail: () => {},
    ...overrides,
  };
}

/** `n` serials of the unit's range with passing shell and seat records (or `failing` of them failing). */
async function testedSerials(n: number, failing = 0): Promise<string[]> {
  const serials = Array.from({ length: n }, () => `${prefix}${String(++next).padStart(6, '0')}`);
  const recs = serials.flatMap((serial, i) => [
    record({ serial, testType: 'shell' }),
    record({ serial, testType: 'seat', ...(i < failing ? { result: 'fail' } : {}) }),
  ]);
  const res = await postBatch(t.app, unit.bench.key, { records: recs });
  if (res.statusCode >= 300) throw new Error(res.body);
  return serials;
}

async function deliveryOf(serials: string[], orderOverrides: Record<string, unknown> = {}, customer: Record<string, unknown> = {}) {
  const c = await addCustomer(t.app, unit.admin, {
    address: '12 Quay Road\nKaohsiung 806',
    country: 'TW',
    contacts: [{ name: 'Ann Buyer', email: `ann-${uniq().toLowerCase()}@buyer.example`, language: 'en', receivesCertificates: true }],
    ...customer,
  });
  const po = await post(t.app, unit.admin, '/api/v1/purchase-orders', {
    customerId: c.id,
    number: `PO-${uniq()}`,
    date: '2024-04-20',
    documentType: '3.1',
    items: [{ line: 10, productId: unit.product.id, quantity: serials.length + 5, buyerItemCode: 'HRC-GV-100', description: 'Gate valve' }],
    ...orderOverrides,
  });
  const d = await addDelivery(t.app, unit.admin, po.id);
  await post(
    t.app,
    unit.admin,
    `/api/v1/deliveries/${d.id}/serials`,
    { units: serials.map((serial, i) => ({ serial, line: 10, tag: `XV-${i + 1}` })) },
    200,
  );
  return { customer: c, po, delivery: d };
}

const release = (id: string) => t.app.inject({ method: 'POST', url: `/api/v1/deliveries/${id}/release`, headers: { cookie: unit.admin } });
const detail = async (id: string) => (await t.app.inject({ url: `/api/v1/deliveries/${id}`, headers: { cookie: unit.admin } })).json().data;
const reportsOf = async (deliveryId: string) =>
  rowsOf<{ unit_id: string; id: string; superseded_by: string | null; document_type: string; language: string }>(
    await t.app.ctx.db.execute(sql`SELECT u.id AS unit_id, r.id, r.superseded_by, r.document_type, r.language
      FROM reports r JOIN delivery_units u ON u.id = r.delivery_unit_id WHERE u.delivery_id = ${deliveryId} ORDER BY r.issued_at, r.id`),
  );

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the JSON read back is checked field by field
function embeddedJson(bytes: Buffer): Record<string, any> {
  const file = tmpFile(bytes);
  execFileSync('pdfdetach', ['-saveall', '-o', path.dirname(file), file]);
  return JSON.parse(fs.readFileSync(path.join(path.dirname(file), 'test-report.json'), 'utf8'));
}

describe('releasing a delivery', () => {
  it('issues every unit a certificate naming the order, in the customer language, and writes the link once', async () => {
    const serials = await testedSerials(4);
    const { delivery, po, customer } = await deliveryOf(serials, {}, { language: 'zh' });
    const res = await release(delivery.id);
    expect(res.statusCode).toBe(202);
    expect(res.json().data).toMatchObject({ status: 'releasing', releaseLanguage: 'zh', issuedCount: 0, unitCount: 4 });
    // Units cannot be added while it runs.
    const add = await t.app.inject({
      method: 'POST',
      url: `/api/v1/deliveries/${delivery.id}/serials`,
      headers: { cookie: unit.admin },
      payload: { units: [{ serial: `${prefix}000190`, line: 10 }] },
    });
    expect(add.statusCode).toBe(409);

    const before = links.length;
    expect(await releaseRound(deps())).toBe(true);
    const d = await detail(delivery.id);
    expect(d).toMatchObject({ status: 'released', issuedCount: 4, releaseError: null });
    expect(d.units.every((u: { reportId: string | null; reportNumber: string | null }) => u.reportId && u.reportNumber)).toBe(true);
    expect(links.length).toBe(before + 1);
    expect(links.at(-1)).toMatchObject({ deliveryId: delivery.id, recipients: [{ email: customer.contacts[0].email }] });

    // Released, it is not edited through any route: number and date, a unit removed, a unit added (cancel it,
    // or correct a tag, instead).
    const edits = await Promise.all([
      t.app.inject({
        method: 'PUT',
        url: `/api/v1/deliveries/${delivery.id}`,
        headers: { cookie: unit.admin },
        payload: { purchaseOrderId: po.id, number: `${delivery.number}-X`, date: '2024-06-01' },
      }),
      t.app.inject({ method: 'DELETE', url: `/api/v1/deliveries/${delivery.id}/serials/${serials[0]}`, headers: { cookie: unit.admin } }),
      t.app.inject({
        method: 'POST',
        url: `/api/v1/deliveries/${delivery.id}/serials`,
        headers: { cookie: unit.admin },
        payload: { units: [{ serial: `${prefix}000191`, line: 10 }] },
      }),
    ]);
    for (const e of edits) expect(e.statusCode, e.body).toBe(409);
    const unchanged = await detail(delivery.id);
    expect(unchanged).toMatchObject({ number: delivery.number, status: 'released' });
    expect(unchanged.units).toHaveLength(4);

    const stored = await reportsOf(delivery.id);
    expect(stored).toHaveLength(4);
    expect(stored.every((r) => r.document_type === 'inspection-certificate-3.1' && r.language === 'zh' && !r.superseded_by)).toBe(true);

    // The certificate prints and embeds the order (EN 10168 A06, A07; the tag beside the serial).
    const [first] = await t.app.ctx.db
      .execute(sql`SELECT bytes FROM reports WHERE id = ${d.units[0].reportId}`)
      .then((r) => rowsOf<{ bytes: Buffer }>(r));
    const text = poppler('pdftotext', ['-layout', tmpFile(Buffer.from(first!.bytes)), '-']);
    expect(text).toContain(customer.name);
    expect(text).toContain(po.number);
    expect(text).toContain('XV-1');
    expect(text).toContain('HRC-GV-100');
    expect(text).toContain('買方');
    const json = embeddedJson(Buffer.from(first!.bytes));
    expect(json.A06_purchaser).toEqual({
      name: customer.name,
      address: '12 Quay Road\nKaohsiung 806',
      postcode: '',
      city: '',
      country: 'TW',
    });
    expect(json.A07_purchaseOrder).toEqual({ number: po.number, date: '2024-04-20' });
    expect(json.A09_purchaserArticle).toEqual({ code: 'HRC-GV-100', description: 'Gate valve' });
    expect(json.A97_orderPosition).toBe(10);
    expect(json.A98_deliveryNote).toEqual({ number: delivery.number, date: delivery.date });
    expect(json.B06_marking).toMatchObject({ tag: 'XV-1' });
    expect(json.B06_marking.serial).toBe(json.B07_productIdentification.serial);
    expect(json.A02_documentType.type).toBe('3.1');

    // Nothing left: another round finds no work and sends nothing.
    expect(await releaseRound(deps())).toBe(false);
    expect(links.length).toBe(before + 1);
    // Released: no more releases, no unit changes.
    expect((await release(delivery.id)).statusCode).toBe(409);
  }, 120_000);

  it('answers 409 with the held units and their reasons, and changes nothing', async () => {
    const serials = await testedSerials(3, 1);
    const untested = `${prefix}000199`;
    const { delivery } = await deliveryOf([...serials, untested]);
    const res = await release(delivery.id);
    expect(res.statusCode).toBe(409);
    const body = res.json();
    expect(body.error.key).toBe('orders.release.held');
    expect(body.data).toMatchObject({ unitCount: 4, passed: 2, held: 2 });
    const held = body.data.units.filter((u: { status: string }) => u.status !== 'pass');
    expect(held.map((u: { serial: string }) => u.serial).sort()).toEqual([serials[0], untested].sort());
    expect(held.find((u: { serial: string }) => u.serial === serials[0]).held[0]).toMatchObject({ testType: 'seat', kind: 'failed' });
    expect((await detail(delivery.id)).status).toBe('open');
    expect(await reportsOf(delivery.id)).toHaveLength(0);
  }, 60_000);

  it('starts one release when asked 20 times at once, and issues each unit once when two rounds run together', async () => {
    const serials = await testedSerials(6);
    const { delivery } = await deliveryOf(serials);
    const answers = await Promise.all(Array.from({ length: 20 }, () => release(delivery.id)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(202));
    const audits = rowsOf<{ n: number }>(
      await t.app.ctx.db.execute(sql`SELECT count(*)::int AS n FROM audit_log WHERE entity_id = ${delivery.id} AND action = 'release'`),
    );
    expect(audits[0]!.n).toBe(1);
    const before = links.length;
    await Promise.all([releaseRound(deps()), releaseRound(deps())]);
    const stored = await reportsOf(delivery.id);
    expect(new Set(stored.map((r) => r.unit_id)).size).toBe(6);
    expect(stored).toHaveLength(6);
    expect((await detail(delivery.id)).issuedCount).toBe(6);
    expect(links.length).toBe(before + 1);
  }, 120_000);

  it('resumes a release stopped halfway without issuing anything twice', async () => {
    const serials = await testedSerials(5);
    const { delivery } = await deliveryOf(serials);
    expect((await release(delivery.id)).statusCode).toBe(202);
    let started = 0;
    // The server "stops" once two certificates are under way: the round finishes those two and ends with the
    // delivery still releasing. (Counted when an issue starts, since two units are in flight at once.)
    await releaseRound(
      deps({
        concurrency: 1,
        issue: async (db, input) => {
          started++;
          return issueReport(db, { ...input, publicBaseUrl: t.app.ctx.config.publicBaseUrl });
        },
      }),
      () => started >= 2,
    );
    expect(await detail(delivery.id)).toMatchObject({ status: 'releasing', issuedCount: 2 });
    // A certificate stored but not yet recorded when the server stopped: the next start finds it by its key.
    const [orphan] = rowsOf<{ id: string }>(
      await t.app.ctx.db.execute(
        sql`SELECT id FROM delivery_units WHERE delivery_id = ${delivery.id} AND report_id IS NULL ORDER BY id LIMIT 1`,
      ),
    );
    const u = (await import('../src/server/modules/orders/release.repo')).unissuedUnits;
    const [first] = await u(t.app.ctx.db, delivery.id, 1);
    const { orderCertificate } = await import('../src/server/modules/orders/release.service');
    await issueReport(t.app.ctx.db, {
      serial: first!.serial,
      language: 'en',
      publicBaseUrl: t.app.ctx.config.publicBaseUrl,
      order: orderCertificate(first!),
    });
    expect(Number(orphan!.id)).toBe(first!.unitId);

    await releaseRound(deps());
    expect(await detail(delivery.id)).toMatchObject({ status: 'released', issuedCount: 5 });
    const stored = await reportsOf(delivery.id);
    expect(stored).toHaveLength(5);
    const numbers = rowsOf<{ n: number }>(
      await t.app.ctx.db.execute(
        sql`SELECT count(DISTINCT r.number)::int AS n FROM reports r JOIN delivery_units u ON u.id = r.delivery_unit_id WHERE u.delivery_id = ${delivery.id}`,
      ),
    );
    expect(numbers[0]!.n).toBe(5);
  }, 120_000);

  it("stops, open again with the reason, when a unit is held after its gate passed; the buyer's systems and the alert inbox hear of it", async () => {
    const serials = await testedSerials(3);
    const { delivery, customer } = await deliveryOf(serials);
    const hook = await t.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: { cookie: unit.admin },
      payload: { url: 'https://hooks.buyer.example/trc', events: ['unit.held'], customerId: customer.id },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    expect((await release(delivery.id)).statusCode).toBe(202);
    // A retest that fails arrives before the background work reaches the unit.
    const res = await postBatch(t.app, unit.bench.key, {
      records: [record({ serial: serials[2], testType: 'seat', result: 'fail', testedAt: '2024-05-02T08:30:00.000Z' })],
    });
    expect(res.statusCode).toBeLessThan(300);
    await releaseRound(deps({ concurrency: 1 }));
    const d = await detail(delivery.id);
    expect(d).toMatchObject({ status: 'open', issuedCount: 2, releaseError: `held:${serials[2]}` });
    expect((await release(delivery.id)).statusCode).toBe(409);
    // The buyer's endpoint has a unit.held event naming the unit, written with the stop.
    const events = rowsOf<{ payload: { data: { serial: string; deliveryId: string } } }>(
      await t.app.ctx.db.execute(sql`SELECT payload FROM webhook_events WHERE type = 'unit.held' AND customer_id = ${customer.id}`),
    );
    expect(events.map((e) => e.payload.data)).toEqual([expect.objectContaining({ serial: serials[2], deliveryId: delivery.id })]);
    // The next alert round raises the stopped release, naming the delivery and the unit, once.
    await evaluateAlerts(t.app.ctx.db, silentSinks);
    await evaluateAlerts(t.app.ctx.db, silentSinks);
    const alerts = await t.app.inject({ url: '/api/v1/alerts?kind=deliveryHeld', headers: { cookie: unit.admin } });
    const mine = (alerts.json().data.items as { serial: string; summary: string; links: { delivery?: string } }[]).filter(
      (a) => a.serial === serials[2],
    );
    expect(mine).toHaveLength(1);
    expect(mine[0]!.summary).toContain(serials[2]);
    expect(mine[0]!.links.delivery).toBe(`/deliveries/${delivery.id}`);
  }, 120_000);

  it('releases a 3.2 delivery only once its witness is recorded, and its certificates name the witness and the tests', async () => {
    const serials = await testedSerials(2);
    const { delivery } = await deliveryOf(serials, { documentType: '3.2' });
    const refused = await release(delivery.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.key).toBe('orders.release.witnessMissing');

    const witness = (id: string, payload: unknown) =>
      t.app.inject({ method: 'PUT', url: `/api/v1/deliveries/${id}/witness`, headers: { cookie: unit.admin }, payload: payload as object });
    const fieldsOf = (res: { json(): { error: { fields: { field: string }[] } } }) =>
      res
        .json()
        .error.fields.map((f) => f.field)
        .sort();
    const bad = await witness(delivery.id, { name: 'Ida\u0007', organisation: '', witnessedOn: '2024-02-30', tests: [] });
    expect(bad.statusCode).toBe(400);
    expect(fieldsOf(bad)).toEqual(['name', 'organisation', 'tests', 'witnessedOn']);
    const unknownTest = await witness(delivery.id, { name: 'Ida Lin', organisation: 'QA', witnessedOn: '2024-05-02', tests: ['x-ray'] });
    expect(unknownTest.statusCode).toBe(400);
    const good = { name: 'Ida Lin', organisation: 'Harbour Refining QA', witnessedOn: '2024-05-02', tests: ['seat', 'shell', 'seat'] };
    // A 3.1 order's delivery records no witness; an unknown delivery is 404.
    const other = await deliveryOf(await testedSerials(1));
    expect((await witness(other.delivery.id, good)).json().error.key).toBe('orders.witness.not32');
    expect((await witness('not-a-uuid', good)).statusCode).toBe(404);

    const ok = await witness(delivery.id, good);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.witness).toMatchObject({ name: 'Ida Lin', organisation: 'Harbour Refining QA', tests: ['shell', 'seat'] });
    expect(ok.json().data.witness.recordedBy).toBeTruthy();
    expect((await release(delivery.id)).statusCode).toBe(202);
    await releaseRound(deps());
    const d = await detail(delivery.id);
    expect(d.status).toBe('released');
    // Released, the witness stays as the certificates print it.
    expect((await witness(delivery.id, { ...good, name: 'Someone Else' })).statusCode).toBe(409);

    const stored = await reportsOf(delivery.id);
    expect(stored).toHaveLength(2);
    expect(stored.every((r) => r.document_type === 'inspection-certificate-3.2')).toBe(true);
    const [row] = await t.app.ctx.db
      .execute(sql`SELECT bytes FROM reports WHERE id = ${d.units[0].reportId}`)
      .then((r) => rowsOf<{ bytes: Buffer }>(r));
    const bytes = Buffer.from(row!.bytes);
    const text = poppler('pdftotext', ['-layout', tmpFile(bytes), '-']).replace(/\s+/g, ' ');
    expect(text).toContain('EN 10204 type 3.2 inspection certificate');
    expect(text).toContain("Witnessed by the purchaser's or a third party's inspector: Ida Lin, Harbour Refining QA");
    expect(text).toMatch(/Tests witnessed on 2 May 2024: Shell test, Seat test/);
    const json = embeddedJson(bytes);
    expect(json.A02_documentType.type).toBe('3.2');
    expect(json.Z03_validation.witness).toEqual({
      name: 'Ida Lin',
      organisation: 'Harbour Refining QA',
      witnessedOn: '2024-05-02',
      tests: ['shell', 'seat'],
    });
  }, 120_000);

  it('refuses a delivery without units', async () => {
    const c = await addCustomer(t.app, unit.admin);
    const po = await post(t.app, unit.admin, '/api/v1/purchase-orders', {
      customerId: c.id,
      number: `PO-${uniq()}`,
      date: '2024-04-20',
      items: [{ line: 1, productId: unit.product.id, quantity: 1 }],
    });
    const empty = await addDelivery(t.app, unit.admin, po.id);
    expect((await release(empty.id)).json().error.key).toBe('orders.release.noUnits');
    expect((await release('not-a-uuid')).statusCode).toBe(404);
  }, 60_000);

  it('gives a unit whose tag is corrected after release a new certificate version that supersedes the old', async () => {
    const serials = await testedSerials(2);
    const { delivery } = await deliveryOf(serials);
    await release(delivery.id);
    await releaseRound(deps());
    const old = (await detail(delivery.id)).units[0];
    const put = (serial: string, tag: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/v1/deliveries/${delivery.id}/serials/${serial}`,
        headers: { cookie: unit.admin },
        payload: { tag },
      });
    // The other unit's tag is refused, naming it.
    const taken = await put(serials[0]!, 'XV-2');
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.fields[0]).toMatchObject({ field: 'tag', key: 'orders.validation.tagTaken' });
    const res = await put(serials[0]!, 'XV-1A');
    expect(res.statusCode).toBe(200);
    const now = res.json().data.units[0];
    expect(now.tag).toBe('XV-1A');
    expect(now.reportId).not.toBe(old.reportId);
    const versions = await reportsOf(delivery.id);
    expect(versions).toHaveLength(3);
    expect(versions.find((r) => r.id === old.reportId)!.superseded_by).toBe(now.reportId);
    const verify = await t.app.inject({ url: `/api/v1/public/reports/${old.reportId}` });
    expect(JSON.stringify(verify.json())).toContain(now.reportNumber);
    const [row] = rowsOf<{ bytes: Buffer }>(await t.app.ctx.db.execute(sql`SELECT bytes FROM reports WHERE id = ${now.reportId}`));
    expect(embeddedJson(Buffer.from(row!.bytes)).B06_marking.tag).toBe('XV-1A');
    // The other unit keeps its certificate.
    expect(res.json().data.units[1].reportId).toBe((await detail(delivery.id)).units[1].reportId);
  }, 120_000);
  it('cancels a released delivery with a reason: its serials ship again and its links end', async () => {
    const serials = await testedSerials(2);
    const { delivery, po } = await deliveryOf(serials);
    await release(delivery.id);
    await releaseRound(
      deps({
        sendLink: (tx, input) => sendDeliveryLink(tx, { ...input, source: 'release', publicBaseUrl: t.app.ctx.config.publicBaseUrl }),
      }),
    );
    const cancel = (reason: unknown) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/deliveries/${delivery.id}/cancel`,
        headers: { cookie: unit.admin },
        payload: { reason },
      });
    expect((await cancel('')).statusCode).toBe(400);
    const res = await cancel('Shipped to the wrong site');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'cancelled', cancelReason: 'Shipped to the wrong site' });
    const live = rowsOf<{ n: number }>(
      await t.app.ctx.db.execute(
        sql`SELECT count(*)::int AS n FROM delivery_links WHERE delivery_id = ${delivery.id} AND revoked_at IS NULL`,
      ),
    );
    expect(live[0]!.n).toBe(0);
    const again = await addDelivery(t.app, unit.admin, po.id);
    const add = await t.app.inject({
      method: 'POST',
      url: `/api/v1/deliveries/${again.id}/serials`,
      headers: { cookie: unit.admin },
      payload: { units: serials.map((serial) => ({ serial, line: 10 })) },
    });
    expect(add.statusCode).toBe(200);
  }, 120_000);
});
