/**
 * The audit trail reads as a person would read it, in English and Chinese: real changes made through the
 * API, read back from /api/v1/audit-log, shown by the web's presenter (src/web/features/audit/components/
 * audit-present.ts) with the real catalogues.
 */
import i18next, { type TFunction } from 'i18next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../src/shared/contract/audit';
import { catalogues } from '../src/shared/i18n/index';
import { presentEntry, type PresentedEntry } from '../src/web/features/audit/components/audit-present';
import { buildTestApp, type TestApp } from './helpers/app';
import { addProduct, postRange, rangeBody, staffCookie } from './helpers/catalogue';

let t: TestApp;
let admin: string;
const tr: Record<'en' | 'zh', TFunction> = {} as never;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await staffCookie(t, { role: 'admin' });
  for (const lang of ['en', 'zh'] as const) {
    const i = i18next.createInstance();
    await i.init({
      showSupportNotice: false,
      lng: lang,
      fallbackLng: 'en',
      resources: { [lang]: { translation: catalogues[lang] } },
      interpolation: { escapeValue: false },
    });
    tr[lang] = i.t;
  }
});
afterAll(() => t.close());

const api = (method: 'POST' | 'PUT' | 'PATCH', url: string, payload: object) =>
  t.app.inject({ method, url, headers: { cookie: admin }, payload });

async function entries(entity: string, entityId: string): Promise<AuditEntry[]> {
  const res = await t.app.inject({ url: `/api/v1/audit-log?entity=${entity}&entityId=${entityId}&order=asc`, headers: { cookie: admin } });
  expect(res.statusCode).toBe(200);
  return res.json().data.items;
}

/** An entry as the screen's lines: "Label: before → after" or "Label: value". */
function lines(p: PresentedEntry): string[] {
  return p.changes.map(
    (c) => `${c.label}: ${c.before !== undefined && c.after !== undefined ? `${c.before} → ${c.after}` : (c.after ?? c.before)}`,
  );
}

describe('the audit trail, readable', () => {
  it('shows a serial range change with the product named once, form order, dates and numbers as on the screens', async () => {
    const p = await addProduct(t.app, admin, { name: 'DN50 PN16 Audit Gate Valve' });
    const created = await postRange(t.app, admin, rangeBody(p.id, 'AUD-000001', 'AUD-001000', 1000, { productionDate: '2026-11-02' }));
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id as string;
    const updated = await api(
      'PUT',
      `/api/v1/serial-ranges/${id}`,
      rangeBody(p.id, 'AUD-000001', 'AUD-002000', 2000, { productionDate: '2026-11-24' }),
    );
    expect(updated.statusCode).toBe(200);
    const [create, update] = await entries('serialRange', id);

    const en = presentEntry(tr.en, 'en', create!);
    expect(en.entity).toBe('Serial range');
    expect(en.action).toBe('Created');
    expect(lines(en)).toEqual([
      'Product: DN50 PN16 Audit Gate Valve',
      'Starting Serial: AUD-000001',
      'Ending Serial: AUD-001000',
      'Total Units: 1,000',
      'Production Date: 2 Nov 2026',
      'Body Material: Not stated',
    ]);
    expect(lines(presentEntry(tr.en, 'en', update!))).toEqual([
      'Ending Serial: AUD-001000 → AUD-002000',
      'Total Units: 1,000 → 2,000',
      'Production Date: 2 Nov 2026 → 24 Nov 2026',
    ]);
    const zh = presentEntry(tr.zh, 'zh', update!);
    expect(zh.entity).toBe('序號範圍');
    expect(zh.action).toBe('修改');
    expect(lines(zh)).toEqual(['結束序號: AUD-001000 → AUD-002000', '總數量: 1,000 → 2,000', '生產日期: 2026年11月2日 → 2026年11月24日']);
    for (const text of [...lines(en), ...lines(zh)]) expect(text).not.toMatch(/productId|[0-9a-f]{8}-[0-9a-f]{4}-|true|false|T\d\d:/);
  });

  it('shows a product change with choices in words and units, in both languages', async () => {
    const p = await addProduct(t.app, admin, { name: 'DN80 Audit Ball Valve', fluid: 'water', pressureFc: 1.6, temperatureMax: 120 });
    const res = await api('PUT', `/api/v1/products/${p.id}`, {
      ...(await t.app.inject({ url: `/api/v1/products/${p.id}`, headers: { cookie: admin } })).json().data,
      fluid: 'steam',
      pressureFc: 2.5,
      temperatureMax: 180,
    });
    expect(res.statusCode).toBe(200);
    const update = (await entries('product', p.id)).find((e) => e.action === 'update')!;
    expect(lines(presentEntry(tr.en, 'en', update))).toEqual([
      'Select Fluid: Water → Steam',
      `${tr.en('products.fields.pressureFc')}: 1.6 MPa → 2.5 MPa`,
      'Temperature Max: 120 °C → 180 °C',
    ]);
    const zh = lines(presentEntry(tr.zh, 'zh', update));
    expect(zh[0]).toBe(`${tr.zh('products.fields.fluid')}: ${tr.zh('products.fluids.water')} → ${tr.zh('products.fluids.steam')}`);
    expect(zh[2]).toBe(`${tr.zh('products.fields.temperatureMax')}: 120 °C → 180 °C`);
    expect(presentEntry(tr.zh, 'zh', update).entity).toBe('產品');
  });

  it('shows a bench being disabled as yes/no with the bench named as its screen names it', async () => {
    const made = await api('POST', '/api/v1/machines', { name: 'Audit Bench 7' });
    expect(made.statusCode).toBe(201);
    const id = made.json().data.machine.id as string;
    expect((await api('PATCH', `/api/v1/machines/${id}`, { disabled: true })).statusCode).toBe(200);
    const update = (await entries('machine', id)).at(-1)!;
    expect(presentEntry(tr.en, 'en', update)).toMatchObject({
      entity: 'Test bench',
      changes: [{ label: 'Disabled', before: 'No', after: 'Yes' }],
    });
    expect(presentEntry(tr.zh, 'zh', update)).toMatchObject({
      entity: '測試機台',
      changes: [{ label: '已停用', before: '否', after: '是' }],
    });
    const create = (await entries('machine', id))[0]!;
    expect(lines(presentEntry(tr.zh, 'zh', create))[0]).toBe('機台名稱: Audit Bench 7');
  });

  it('names a CSV import of test records in the page language, never "test-record"', () => {
    const entry = { entity: 'test-record', action: 'import', before: null, after: { stored: 1234 } };
    expect(presentEntry(tr.en, 'en', entry)).toMatchObject({
      entity: 'Test records',
      action: 'Imported',
      changes: [{ label: 'Records stored', after: '1,234' }],
    });
    expect(presentEntry(tr.zh, 'zh', entry)).toMatchObject({
      entity: '測試紀錄',
      action: '匯入',
      changes: [{ label: '已儲存紀錄', after: '1,234' }],
    });
  });
});
