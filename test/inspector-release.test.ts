/**
 * Authorised inspectors and the release of a serial range (decision 0052): admins mark inspectors with a
 * title; an inspector releases a range once (others 403, again 409, thirty at once one release); an
 * inspection certificate (3.1) of an unreleased range is held with its own reason, on the certificate path,
 * the staff’s held panel and a 3.1 order’s delivery gate; once released it is issued naming the inspector,
 * the title and the time of release, in the PDF and in its embedded data.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/server/db/client';
import { auditLog } from '../src/server/db/schema/index';
import { embeddedFileBytes } from '../src/server/lib/pdf-attachment';
import { issueReport } from '../src/server/modules/reports/issue';
import { formatDateTime } from '../src/server/modules/reports/format';
import { buildTestApp, type TestApp } from './helpers/app';
import { rangeBody, staffCookie } from './helpers/catalogue';
import { createUser } from './helpers/factories';
import { certificatesOfType31, inspectorCookie, rangeIdOf } from './helpers/inspectors';
import { adminCookie } from './helpers/machine-data';
import { addCustomer, addDelivery, post, uniq } from './helpers/orders';
import { poppler, tmpFile, unitWithRecords } from './helpers/reports';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await adminCookie(t);
  await certificatesOfType31(t);
}, 60_000);
afterAll(() => t.close());

const api = (method: 'GET' | 'POST' | 'PATCH', url: string, cookie: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload !== undefined ? { payload: payload as object } : {}) });

const issue = (serial: string, language: 'en' | 'zh' = 'en') =>
  issueReport(t.app.ctx.db, { serial, language, publicBaseUrl: t.app.ctx.config.publicBaseUrl });

async function auditCount(entity: string, entityId: string, action: string): Promise<number> {
  const rows = await t.app.ctx.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entity, entity), eq(auditLog.entityId, entityId), eq(auditLog.action, action)));
  return rows.length;
}

describe('authorised inspectors', () => {
  it('are marked by admins with a title, audited; staff cannot mark anyone', async () => {
    const user = await createUser(t.app.ctx.db, { name: 'Wang Ya-Ting' });
    const marked = await api('PATCH', `/api/v1/staff/${user.id}`, admin, { inspector: true, inspectorTitle: 'QA Inspector' });
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json().data).toMatchObject({ inspector: true, inspectorTitle: 'QA Inspector' });
    const read = await api('GET', `/api/v1/staff/${user.id}`, admin);
    expect(read.json().data).toMatchObject({ inspector: true, inspectorTitle: 'QA Inspector' });
    const [entry] = await t.app.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'user'), eq(auditLog.entityId, user.id), eq(auditLog.action, 'update')));
    expect(entry?.before).toMatchObject({ inspector: false, inspectorTitle: '' });
    expect(entry?.after).toMatchObject({ inspector: true, inspectorTitle: 'QA Inspector' });

    const staff = await staffCookie(t);
    expect((await api('PATCH', `/api/v1/staff/${user.id}`, staff, { inspector: false })).statusCode).toBe(403);

    // A title is kept when only the switch changes, and the switch cannot stay on without one.
    const off = await api('PATCH', `/api/v1/staff/${user.id}`, admin, { inspector: false });
    expect(off.json().data).toMatchObject({ inspector: false, inspectorTitle: 'QA Inspector' });
    const untitled = await createUser(t.app.ctx.db, { name: 'No Title' });
    const zhAdmin = await staffCookie(t, { role: 'admin', language: 'zh' });
    for (const [cookie, text] of [
      [admin, 'An authorised inspection representative needs a title'],
      [zhAdmin, '授權檢驗代表須填寫職稱'],
    ] as const) {
      const refused = await api('PATCH', `/api/v1/staff/${untitled.id}`, cookie, { inspector: true });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.fields).toEqual([
        expect.objectContaining({ field: 'inspectorTitle', key: 'staff.validation.inspectorTitleRequired' }),
      ]);
      expect(JSON.stringify(refused.json().error.fields)).toContain(text);
    }
    const bothEmpty = await api('PATCH', `/api/v1/staff/${untitled.id}`, admin, { inspector: true, inspectorTitle: '  ' });
    expect(bothEmpty.statusCode).toBe(400);
    const junk = await api('PATCH', `/api/v1/staff/${untitled.id}`, admin, { inspector: 'yes', inspectorTitle: 'A\nB' });
    expect(junk.statusCode).toBe(400);

    // New staff can be added as inspectors.
    const added = await api('POST', '/api/v1/staff', admin, {
      name: 'Chen Inspector',
      email: `chen-${Date.now()}@example.com`,
      password: 'Correct-Horse-Battery-42',
      role: 'staff',
      inspector: true,
      inspectorTitle: 'Chief Inspector',
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json().data).toMatchObject({ inspector: true, inspectorTitle: 'Chief Inspector' });
  });
});

describe('the release of a serial range', () => {
  it('by an inspector after the gate summary: 200 once, 409 again; others 403; unknown 404', async () => {
    const unit = await unitWithRecords(t, [{ testType: 'shell' }, { testType: 'seat' }]);
    const id = await rangeIdOf(t, unit.serial);
    const staff = await staffCookie(t);

    const view = await api('GET', `/api/v1/serial-ranges/${id}/release`, staff);
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json().data).toEqual({ rangeId: id, release: null, gate: { unitCount: 100, passed: 1, held: 0, noData: 99 } });

    const refused = await api('POST', `/api/v1/serial-ranges/${id}/release`, staff);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.key).toBe('serials.release.notInspector');
    // An admin is not an inspector by being an admin.
    expect((await api('POST', `/api/v1/serial-ranges/${id}/release`, admin)).statusCode).toBe(403);

    const inspector = await inspectorCookie(t, 'Lin Mei-Hua', 'QA Manager');
    const released = await api('POST', `/api/v1/serial-ranges/${id}/release`, inspector.cookie);
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json().data.release).toMatchObject({
      rangeId: id,
      source: 'inspector',
      inspectorName: 'Lin Mei-Hua',
      inspectorTitle: 'QA Manager',
      gate: { unitCount: 100, passed: 1, held: 0, noData: 99 },
    });
    expect(Math.abs(Date.parse(released.json().data.release.releasedAt) - Date.now())).toBeLessThan(60_000);

    const again = await api('POST', `/api/v1/serial-ranges/${id}/release`, inspector.cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.key).toBe('serials.release.already');
    expect((await api('GET', `/api/v1/serial-ranges/${id}/release`, staff)).json().data.release.inspectorName).toBe('Lin Mei-Hua');
    expect(await auditCount('serialRange', id, 'release')).toBe(1);

    expect((await api('POST', '/api/v1/serial-ranges/not-a-range/release', inspector.cookie)).statusCode).toBe(404);
    expect((await api('POST', '/api/v1/serial-ranges/00000000-0000-4000-8000-000000000000/release', inspector.cookie)).statusCode).toBe(
      404,
    );
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/serial-ranges/${id}/release` })).statusCode).toBe(401);
  });

  it('thirty identical requests at once release once, with one audit entry', async () => {
    const unit = await unitWithRecords(t, [{ testType: 'shell' }]);
    const id = await rangeIdOf(t, unit.serial);
    const inspector = await inspectorCookie(t, 'Huang Jun', 'Inspector');
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => api('POST', `/api/v1/serial-ranges/${id}/release`, inspector.cookie)),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(29);
    const rows = rowsOf(await t.app.ctx.db.execute(sql`SELECT 1 FROM range_releases WHERE range_id = ${id}`));
    expect(rows).toHaveLength(1);
    expect(await auditCount('serialRange', id, 'release')).toBe(1);
  });

  it('is withdrawn when the range gets other units (its bounds or product), not when its production date changes', async () => {
    const unit = await unitWithRecords(t, [{ testType: 'shell' }, { testType: 'seat' }]);
    const id = await rangeIdOf(t, unit.serial);
    const inspector = await inspectorCookie(t, 'Tsai Wen', 'Inspector');
    expect((await api('POST', `/api/v1/serial-ranges/${id}/release`, inspector.cookie)).statusCode).toBe(200);
    const prefix = unit.serial.slice(0, -6);
    const put = (end: string, total: number, date: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/v1/serial-ranges/${id}`,
        headers: { cookie: unit.admin },
        payload: rangeBody(unit.product.id, `${prefix}000100`, `${prefix}${end}`, total, { productionDate: date }),
      });
    expect((await put('000199', 100, '2024-03-02')).statusCode).toBe(200);
    expect((await api('GET', `/api/v1/serial-ranges/${id}/release`, unit.admin)).json().data.release).not.toBeNull();
    expect((await issue(unit.serial)).status).toBe('issued');

    expect((await put('000249', 150, '2024-03-02')).statusCode).toBe(200);
    expect((await api('GET', `/api/v1/serial-ranges/${id}/release`, unit.admin)).json().data.release).toBeNull();
    expect(await issue(unit.serial)).toEqual({ status: 'held', held: [{ testType: null, kind: 'unreleased' }] });
    const [entry] = await t.app.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'serialRange'), eq(auditLog.entityId, id), eq(auditLog.action, 'update')))
      .orderBy(sql`${auditLog.id} DESC`)
      .limit(1);
    expect(entry?.before).toMatchObject({ released: true });
    expect(entry?.after).toMatchObject({ released: false, endSerial: `${prefix}000249` });
  });
});

describe('an inspection certificate (3.1) and the release', () => {
  it('holds a unit of an unreleased range with its own reason, on the certificate path and the staff’s held panel', async () => {
    const unit = await unitWithRecords(t, [{ testType: 'shell' }, { testType: 'seat' }]);
    const held = await issue(unit.serial);
    expect(held).toEqual({ status: 'held', held: [{ testType: null, kind: 'unreleased' }] });

    // The staff's held panel lists a visitor's held request with the same reason.
    await t.app.ctx.db.execute(sql`INSERT INTO search_requests (group_id, source, serial, language, status)
      VALUES (gen_random_uuid(), 'lookup', ${unit.serial}, 'en', 'held')`);
    const today = new Date().toISOString().slice(0, 10);
    const panel = await api('GET', `/api/v1/quality/held-requests?from=${today}&to=${today}&pageSize=100`, admin);
    expect(panel.statusCode, panel.body).toBe(200);
    const item = (panel.json().data.items as { serial: string; reason: string; heldFor: unknown[] }[]).find(
      (i) => i.serial === unit.serial,
    );
    expect(item).toMatchObject({
      reason: 'stillHeld',
      heldFor: [{ testType: null, kind: 'unreleased', testedAt: null, bench: null, reasons: [] }],
    });
  });

  it('holds a 3.1 order’s delivery at its gate until the range is released; a delivery release by staff does not release it', async () => {
    const unit = await unitWithRecords(t, [{ testType: 'shell' }, { testType: 'seat' }]);
    const customer = await addCustomer(t.app, unit.admin, { country: 'TW', address: '1 Harbour Road' });
    const po = await post(t.app, unit.admin, '/api/v1/purchase-orders', {
      customerId: customer.id,
      number: `PO-${uniq()}`,
      date: '2024-04-20',
      documentType: '3.1',
      items: [{ line: 10, productId: unit.product.id, quantity: 1, buyerItemCode: 'GV-100' }],
    });
    const d = await addDelivery(t.app, unit.admin, po.id);
    await post(t.app, unit.admin, `/api/v1/deliveries/${d.id}/serials`, { units: [{ serial: unit.serial, line: 10, tag: '' }] }, 200);
    const gate = (await api('GET', `/api/v1/deliveries/${d.id}/gate`, unit.admin)).json().data;
    expect(gate.held).toBe(1);
    expect(gate.units[0].held).toEqual([{ testType: null, kind: 'unreleased', reasons: [] }]);
    const refused = await api('POST', `/api/v1/deliveries/${d.id}/release`, unit.admin);
    expect(refused.statusCode).toBe(409);

    const inspector = await inspectorCookie(t, 'Kao Li', 'Inspector');
    expect((await api('POST', `/api/v1/serial-ranges/${await rangeIdOf(t, unit.serial)}/release`, inspector.cookie)).statusCode).toBe(200);
    expect((await api('GET', `/api/v1/deliveries/${d.id}/gate`, unit.admin)).json().data.held).toBe(0);
    expect((await api('POST', `/api/v1/deliveries/${d.id}/release`, unit.admin)).statusCode).toBe(202);
  });

  it('is issued once the range is released, naming the inspector, the title and the time of release (PDF and data)', async () => {
    const unit = await unitWithRecords(t, [{ testType: 'shell' }, { testType: 'seat' }]);
    const id = await rangeIdOf(t, unit.serial);
    expect((await issue(unit.serial)).status).toBe('held');
    const inspector = await inspectorCookie(t, 'Lin Mei-Hua', 'QA Manager');
    const res = await api('POST', `/api/v1/serial-ranges/${id}/release`, inspector.cookie);
    expect(res.statusCode, res.body).toBe(200);
    const releasedAt = new Date(res.json().data.release.releasedAt);

    const en = await issue(unit.serial, 'en');
    if (en.status !== 'issued') throw new Error(en.status);
    const text = poppler('pdftotext', [tmpFile(en.report.bytes), '-']).replace(/\s+/g, ' ');
    expect(text).toContain('Validated by the authorised inspection representative: Lin Mei-Hua, QA Manager');
    expect(text).toContain(`released for inspection certificates on ${formatDateTime('en', releasedAt)}`);
    expect(text).toContain('independent of the manufacturing department');
    expect(text).not.toContain('Settings Person');
    expect(en.report.bytes.toString('latin1')).toContain('/Name (Lin Mei-Hua)');
    const json = JSON.parse(embeddedFileBytes(en.report.bytes)!.toString('utf8'));
    expect(json.Z03_validation).toMatchObject({
      inspectionRepresentative: 'Lin Mei-Hua',
      inspectionRepresentativeTitle: 'QA Manager',
      releasedAt: releasedAt.toISOString(),
    });

    const zh = await issue(unit.serial, 'zh');
    if (zh.status !== 'issued') throw new Error(zh.status);
    const zhText = poppler('pdftotext', [tmpFile(zh.report.bytes), '-']).replace(/\s+/g, '');
    expect(zhText).toContain('經授權檢驗代表確認：Lin Mei-Hua，QA Manager'.replace(/\s+/g, ''));
    expect(zhText).toContain('序號範圍於');
  });

  it('a range from before inspectors were kept stays validated by the name in Settings', async () => {
    const unit = await unitWithRecords(t, [{ testType: 'shell' }, { testType: 'seat' }]);
    const id = await rangeIdOf(t, unit.serial);
    // What migration 0034 stores for every range that existed before it.
    await t.app.ctx.db.execute(sql`INSERT INTO range_releases (range_id, source) VALUES (${id}, 'settings')`);
    const r = await issue(unit.serial);
    if (r.status !== 'issued') throw new Error(r.status);
    const text = poppler('pdftotext', [tmpFile(r.report.bytes), '-']).replace(/\s+/g, ' ');
    expect(text).toContain('Validated by the authorised inspection representative: Settings Person');
    expect(text).not.toContain('released for inspection certificates');
    const json = JSON.parse(embeddedFileBytes(r.report.bytes)!.toString('utf8'));
    expect(json.Z03_validation).toMatchObject({ inspectionRepresentative: 'Settings Person', releasedAt: null });
    const view = await api('GET', `/api/v1/serial-ranges/${id}/release`, admin);
    expect(view.json().data.release).toMatchObject({ source: 'settings' });
  });
});
