/**
 * Every record says where it came from (migration 0019): a staff upload keeps its uploader, file name and
 * SHA-256, shown with the record and printed on the certificate; a file may name a bench only when an admin
 * granted it and the bench is enabled; the import's audit entry names the file, the benches and the serials;
 * Settings can keep certificates to bench-sent records.
 */
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/server/db/client';
import { SETTINGS_TEXT_FIELDS, settingsUpdateInput } from '../src/shared/contract/settings';
import { getSettings, updateSettings } from '../src/server/modules/settings/settings.service';
import { issueReport } from '../src/server/modules/reports/issue';
import { buildTestApp, type TestApp } from './helpers/app';
import { multipart, staffCookie } from './helpers/catalogue';
import { postBatch, record } from './helpers/machine-data';
import { API598_GATE, poppler, tmpFile, unitWithRecords } from './helpers/reports';

let t: TestApp;
let staff: string;
let staffId: string;
let benchId: string;
const HEADER = 'recordId,serial,testType,medium,testPressure,holdingSeconds,leakageValue,leakageUnit,result,testedAt,operator,machine';

beforeAll(async () => {
  t = await buildTestApp();
  staff = await staffCookie(t);
  [{ id: staffId }] = rowsOf<{ id: string }>(await t.app.ctx.db.execute(sql`SELECT id::text FROM users WHERE role = 'staff' LIMIT 1`)) as [
    { id: string },
  ];
});
afterAll(() => t?.close());

const importAs = (cookie: string, csv: string, filename = 'shift-3.csv') => {
  const { payload, headers } = multipart(csv, filename);
  return t.app.inject({ method: 'POST', url: '/api/v1/machine-data/import', headers: { ...headers, cookie }, payload });
};
const line = (id: string, serial: string, machine: string, testType = 'shell', pressure = '3.0') =>
  `${id},${serial},${testType},water,${pressure},60,,,pass,2024-05-01T08:30:00Z,Op,${machine}`;
const errors = (res: { json(): { data: { errors: { row: number; field: string; key: string }[] } } }) =>
  res.json().data.errors.map((e) => `${e.row} ${e.field} ${e.key}`);

describe("who may import in a bench's name", () => {
  it('refuses a staff upload naming a bench without a grant, and a disabled bench for anyone', async () => {
    const u = await unitWithRecords(t, [], API598_GATE, { bodyMaterial: 'wcb' });
    benchId = u.bench.id;
    const csv = `${HEADER}\n${line('PV-1', u.serial, u.bench.name)}\n`;
    const refused = await importAs(staff, csv);
    expect(refused.statusCode).toBe(200);
    expect(errors(refused)).toEqual(['2 machine machineImport.benchNotGranted']);
    expect(refused.json().data.errors[0].message).toContain(u.bench.name);

    // Staff cannot grant it; an admin can, and only to staff accounts.
    const url = `/api/v1/machines/${benchId}/import-grants`;
    expect((await t.app.inject({ method: 'PUT', url, headers: { cookie: staff }, payload: { userIds: [staffId] } })).statusCode).toBe(403);
    const notStaff = await t.app.inject({ method: 'PUT', url, headers: { cookie: u.admin }, payload: { userIds: [randomUuid()] } });
    expect(notStaff.statusCode).toBe(400);
    const granted = await t.app.inject({ method: 'PUT', url, headers: { cookie: u.admin }, payload: { userIds: [staffId] } });
    expect(granted.statusCode).toBe(200);
    expect(granted.json().data.userIds).toEqual([staffId]);

    const stored = await importAs(staff, csv);
    expect(stored.json().data).toMatchObject({ valid: true, stored: 1 });

    const disable = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/machines/${benchId}`,
      headers: { cookie: u.admin },
      payload: { disabled: true },
    });
    expect(disable.statusCode).toBe(200);
    const again = await importAs(u.admin, `${HEADER}\n${line('PV-2', u.serial, u.bench.name, 'backseat', '2.2')}\n`);
    expect(errors(again)).toEqual(['2 machine machineImport.disabledMachine']);
    await t.app.inject({ method: 'PATCH', url: `/api/v1/machines/${benchId}`, headers: { cookie: u.admin }, payload: { disabled: false } });
  });
});

describe('a staff upload', () => {
  it('is kept with its uploader, file and SHA-256, shown with the record, audited and printed as entered by', async () => {
    const u = await unitWithRecords(t, [], API598_GATE, { bodyMaterial: 'wcb' });
    await t.app.ctx.db.execute(sql`INSERT INTO machine_import_grants (machine_id, user_id) VALUES (${u.bench.id}::uuid, ${staffId}::uuid)`);
    const csv = `${HEADER}\n${[
      line('PU-1', u.serial, u.bench.name),
      line('PU-2', u.serial, u.bench.name, 'backseat', '2.2'),
      `PU-3,${u.serial},air-seat,air,0.6,60,0,bubbles/min,pass,2024-05-01T08:30:00Z,Op,`,
    ].join('\n')}\n`;
    const res = await importAs(staff, csv, 'C:\\bench exports\\night\u0007shift.csv');
    expect(res.json().data).toMatchObject({ valid: true, stored: 3 });
    const sha256 = createHash('sha256').update(csv).digest('hex');

    const list = await t.app.inject({ url: `/api/v1/machine-data?serial=${u.serial}`, headers: { cookie: staff } });
    const items = list.json().data.items as Array<{ recordId: string; machineName: string | null; upload: Record<string, unknown> | null }>;
    expect(items).toHaveLength(3);
    for (const r of items) expect(r.upload).toMatchObject({ by: expect.stringContaining('@'), fileName: 'nightshift.csv', sha256 });
    expect(items.find((r) => r.recordId === 'PU-1')!.machineName).toBe(u.bench.name);

    const [audit] = rowsOf<{ entity_id: string; after: Record<string, unknown> }>(
      await t.app.ctx.db.execute(sql`SELECT entity_id, after FROM audit_log WHERE action = 'import' AND entity = 'test-record'
        ORDER BY id DESC LIMIT 1`),
    );
    expect(audit!.after).toMatchObject({
      stored: 3,
      file: 'nightshift.csv',
      sha256,
      benches: [u.bench.name],
      serialCount: 1,
      serials: [u.serial],
      uploadId: audit!.entity_id,
    });

    const issued = await issueReport(t.app.ctx.db, { serial: u.serial, language: 'en', publicBaseUrl: t.app.ctx.config.publicBaseUrl });
    expect(issued.status).toBe('issued');
    if (issued.status !== 'issued') return;
    const text = poppler('pdftotext', ['-layout', tmpFile(issued.report.bytes), '-']).replace(/\s+/g, ' ');
    expect(text).toContain('Entered by');
    expect(text).toContain('nightshift.csv (not sent by the bench)');
  });

  it('records a bench sent are not marked', async () => {
    const u = await unitWithRecords(t, [{ testType: 'shell', testPressure: 2.94 }], API598_GATE, { bodyMaterial: 'wcb' });
    const list = await t.app.inject({ url: `/api/v1/machine-data?serial=${u.serial}`, headers: { cookie: staff } });
    expect(list.json().data.items[0]).toMatchObject({ machineName: u.bench.name, upload: null });
  });
});

describe('certificates from bench-sent records only', () => {
  it('leaves uploads out of the gate and the certificate when Settings ask for it', async () => {
    const u = await unitWithRecords(t, [], API598_GATE, { bodyMaterial: 'wcb' });
    await t.app.ctx.db.execute(sql`INSERT INTO machine_import_grants (machine_id, user_id) VALUES (${u.bench.id}::uuid, ${staffId}::uuid)`);
    const csv = `${HEADER}\n${[line('PB-1', u.serial, u.bench.name), line('PB-2', u.serial, u.bench.name, 'backseat', '2.2')].join('\n')}\n`;
    expect((await importAs(staff, csv)).json().data).toMatchObject({ stored: 2 });
    const air = await postBatch(t.app, u.bench.key, {
      records: [
        record({
          serial: u.serial,
          testType: 'air-seat',
          medium: 'air',
          testPressure: 0.6,
          holdingSeconds: 60,
          leakageValue: 0,
          leakageUnit: 'bubbles/min',
          samples: [],
        }),
      ],
    });
    expect(air.statusCode).toBe(200);
    const issue = () => issueReport(t.app.ctx.db, { serial: u.serial, language: 'en', publicBaseUrl: t.app.ctx.config.publicBaseUrl });
    expect((await issue()).status).toBe('issued');

    const actor = { id: null, label: 'test' };
    const before = await getSettings(t.app.ctx.db);
    const benchOnly = (benchRecordsOnly: boolean) =>
      updateSettings(t.app.ctx.db, actor, settingsUpdateInput.parse({ ...before, benchRecordsOnly }));
    try {
      expect((await benchOnly(true)).benchRecordsOnly).toBe(true);
      // The shell test is required and only staff entered it: held.
      const held = await issue();
      expect(held.status).toBe('held');
      if (held.status === 'held') expect(held.held).toContainEqual(expect.objectContaining({ testType: 'shell', kind: 'missing' }));
    } finally {
      await benchOnly(false);
    }
    expect((await issue()).status).toBe('issued');
  });

  it('is a setting admins change through the API, audited', async () => {
    const admin = await staffCookie(t, { role: 'admin' });
    const current = (await t.app.inject({ url: '/api/v1/settings', headers: { cookie: admin } })).json().data;
    const body = Object.fromEntries(SETTINGS_TEXT_FIELDS.map((k) => [k, current[k]]));
    const bad = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/settings',
      headers: { cookie: admin },
      payload: { ...body, benchRecordsOnly: 'yes' },
    });
    expect(bad.statusCode).toBe(400);
    const on = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/settings',
      headers: { cookie: admin },
      payload: { ...body, benchRecordsOnly: true },
    });
    expect(on.statusCode).toBe(200);
    expect(on.json().data.benchRecordsOnly).toBe(true);
    // Left out: unchanged.
    const same = await t.app.inject({ method: 'PUT', url: '/api/v1/settings', headers: { cookie: admin }, payload: body });
    expect(same.json().data.benchRecordsOnly).toBe(true);
    const off = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/settings',
      headers: { cookie: admin },
      payload: { ...body, benchRecordsOnly: false },
    });
    expect(off.json().data.benchRecordsOnly).toBe(false);
  });
});

function randomUuid(): string {
  const h = randomBytes(16).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
