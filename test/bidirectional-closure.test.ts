/**
 * Closure tests on each side of a bidirectional valve (docs/decisions/0054-test-conditions.md): a product
 * marked bidirectional has each unit held until every closure test type it was tested with conforms on side
 * A and on side B (a record stating both sides counts for each, one stating none for neither); a
 * unidirectional product is judged as before. The certificate prints each side's closure record.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueReport } from '../src/server/modules/reports/issue';
import { buildTestApp, type TestApp } from './helpers/app';
import { addProduct, productBody, staffCookie, upload } from './helpers/catalogue';
import { postBatch, record } from './helpers/machine-data';
import { poppler, tmpFile, unitWithRecords, type Unit } from './helpers/reports';

let t: TestApp;
let staff: string;
beforeAll(async () => {
  t = await buildTestApp();
  staff = await staffCookie(t);
});
afterAll(() => t.close());

const at = (minute: number) => `2024-05-01T08:${String(minute).padStart(2, '0')}:00.000Z`;
const shell = { testType: 'shell', side: 'both', testedAt: at(0) };

async function answer(serial: string) {
  const res = await t.app.inject({ url: `/api/v1/held-units/${encodeURIComponent(serial)}`, headers: { cookie: staff } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { status: string; heldFor: { kind: string; testType: string | null; side?: string }[] };
}

async function send(unit: Unit, records: Record<string, unknown>[]) {
  const res = await postBatch(t.app, unit.bench.key, { records: records.map((o) => record({ serial: unit.serial, ...o })) });
  expect(res.statusCode, res.body).toBeLessThan(300);
}

describe('a bidirectional valve', () => {
  it('is held until its closure test conforms on side A and on side B', async () => {
    const unit = await unitWithRecords(t, [shell, { testType: 'seat', side: 'A', testedAt: at(10) }], { bidirectional: true });
    expect(await answer(unit.serial)).toEqual({
      serial: unit.serial,
      status: 'held',
      heldFor: [{ testType: 'seat', kind: 'closure-one-side', side: 'B', testedAt: null, bench: null, reasons: [] }],
    });
    // The worklist names it and filters by it.
    const list = await t.app.inject({
      url: `/api/v1/held-units?from=2024-05-01&to=2024-05-01&reason=closure-one-side&productId=${unit.product.id}`,
      headers: { cookie: staff },
    });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.items.map((u: { serial: string }) => u.serial)).toEqual([unit.serial]);
    const csv = await t.app.inject({
      url: `/api/v1/held-units/export.csv?from=2024-05-01&to=2024-05-01&productId=${unit.product.id}`,
      headers: { cookie: staff },
    });
    expect(csv.body).toContain('closure-one-side seat side B');
    expect(
      (await issueReport(t.app.ctx.db, { serial: unit.serial, language: 'en', publicBaseUrl: t.app.ctx.config.publicBaseUrl })).status,
    ).toBe('held');

    // Side B's record releases it; a later failing side-B record holds it again (the gate's own "failed").
    await send(unit, [{ testType: 'seat', side: 'B', testedAt: at(20) }]);
    expect((await answer(unit.serial)).status).toBe('releasable');
    await send(unit, [{ testType: 'seat', side: 'B', result: 'fail', testedAt: at(30) }]);
    expect((await answer(unit.serial)).heldFor.map((h) => h.kind)).toEqual(['failed']);
    // A failing side-A record hidden behind a passing side-B retest is named by its side.
    await send(unit, [
      { testType: 'seat', side: 'A', result: 'fail', testedAt: at(35) },
      { testType: 'seat', side: 'B', testedAt: at(40) },
    ]);
    expect((await answer(unit.serial)).heldFor).toMatchObject([{ kind: 'closure-one-side', testType: 'seat', side: 'A' }]);
  });

  it('counts a record stating both sides for each, and one stating no side for neither', async () => {
    const both = await unitWithRecords(t, [shell, { testType: 'seat', side: 'both', testedAt: at(10) }], { bidirectional: true });
    expect((await answer(both.serial)).status).toBe('releasable');

    const none = await unitWithRecords(t, [shell, { testType: 'seat', testedAt: at(10) }], { bidirectional: true });
    expect((await answer(none.serial)).heldFor).toMatchObject([
      { kind: 'closure-one-side', side: 'A' },
      { kind: 'closure-one-side', side: 'B' },
    ]);
    // A later record without a side does not make up for side B either.
    const later = await unitWithRecords(
      t,
      [shell, { testType: 'seat', side: 'A', testedAt: at(10) }, { testType: 'seat', testedAt: at(20) }],
      { bidirectional: true },
    );
    expect((await answer(later.serial)).heldFor).toMatchObject([{ kind: 'closure-one-side', side: 'B' }]);
    // Each closure test type the unit has is asked on its own.
    const gas = await unitWithRecords(
      t,
      [shell, { testType: 'seat', side: 'both', testedAt: at(10) }, { testType: 'air-seat', medium: 'air', side: 'A', testedAt: at(20) }],
      { bidirectional: true },
    );
    expect((await answer(gas.serial)).heldFor).toMatchObject([{ kind: 'closure-one-side', testType: 'air-seat', side: 'B' }]);
  });

  it('is judged the same by the batch gate (worklist, dashboard, deliveries)', async () => {
    const unit = await unitWithRecords(t, [shell, { testType: 'seat', side: 'B', testedAt: at(10) }], { bidirectional: true });
    const { gatesOf, serialUnits } = await import('../src/server/modules/reports/gate-batch');
    const gates = await gatesOf(t.app.ctx.db, serialUnits([unit.serial]));
    expect(gates.get(unit.serial)).toMatchObject({ status: 'held', held: [{ kind: 'closure-one-side', testType: 'seat', side: 'A' }] });
  });

  it('prints each side’s closure record on its certificate', async () => {
    const unit = await unitWithRecords(
      t,
      [
        shell,
        { testType: 'seat', side: 'A', testedAt: at(10) },
        { testType: 'seat', side: 'B', testedAt: at(20) },
        { testType: 'backseat', testedAt: at(30) },
      ],
      { bidirectional: true },
    );
    const issued = await issueReport(t.app.ctx.db, { serial: unit.serial, language: 'en', publicBaseUrl: t.app.ctx.config.publicBaseUrl });
    expect(issued.status).toBe('issued');
    if (issued.status !== 'issued') return;
    const text = poppler('pdftotext', ['-raw', tmpFile(issued.report.bytes), '-']).replace(/\s+/g, ' ');
    expect(text).toContain('side A pressurised');
    expect(text).toContain('side B pressurised');
    expect(text).toContain('both sides pressurised');
  });
});

describe('a unidirectional valve', () => {
  it('is judged as before: one side of its closure test is enough', async () => {
    const unit = await unitWithRecords(t, [shell, { testType: 'seat', side: 'A', testedAt: at(10) }]);
    expect((await answer(unit.serial)).status).toBe('releasable');
    const issued = await issueReport(t.app.ctx.db, { serial: unit.serial, language: 'en', publicBaseUrl: t.app.ctx.config.publicBaseUrl });
    expect(issued.status).toBe('issued');
  });
});

describe("the product's bidirectional field", () => {
  it('defaults to no, is kept on a replace that leaves it out, and refuses what is not true or false', async () => {
    const created = await addProduct(t.app, staff);
    const read = async (id: string) =>
      (await t.app.inject({ url: `/api/v1/products/${id}`, headers: { cookie: staff } })).json().data as Record<string, unknown>;
    expect((await read(created.id)).bidirectional).toBe(false);

    const body = productBody({ name: `Ball Valve ${created.id.slice(0, 8)}`, bidirectional: true });
    const put = await t.app.inject({ method: 'PUT', url: `/api/v1/products/${created.id}`, headers: { cookie: staff }, payload: body });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data.bidirectional).toBe(true);
    const { bidirectional: _b, ...without } = body;
    const kept = await t.app.inject({ method: 'PUT', url: `/api/v1/products/${created.id}`, headers: { cookie: staff }, payload: without });
    expect(kept.statusCode, kept.body).toBe(200);
    expect((await read(created.id)).bidirectional).toBe(true);

    for (const bad of ['yes', 1, null]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/products',
        headers: { cookie: staff },
        payload: productBody({ bidirectional: bad }),
      });
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json().error.fields, String(bad)).toEqual([
        expect.objectContaining({ field: 'bidirectional', key: 'products.validation.bidirectional' }),
      ]);
    }
  });

  it('travels in the CSV export and import', async () => {
    const name = `Ball Valve CSV ${Date.now()}`;
    const p = await addProduct(t.app, staff, { name, bidirectional: true });
    const csv = await t.app.inject({ url: `/api/v1/products/export.csv?q=${encodeURIComponent(name)}`, headers: { cookie: staff } });
    const [header, row] = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    const cols = header!.split(',');
    expect(row!.split(',')[cols.indexOf('bidirectional')]).toBe('true');
    expect(p.id).toBeTruthy();

    const head = 'name,fluid,temperatureMax,temperatureMin,pressureFc,bidirectional';
    const file = [head, `${name} 2,water,120,-10,1.6,TRUE`, `${name} 3,water,120,-10,1.6,`, `${name} 4,water,120,-10,1.6,yes`].join('\r\n');
    const refused = await upload(t.app, staff, '/api/v1/products/import', file);
    expect(refused.statusCode, refused.body).toBe(200);
    expect(refused.json().data).toMatchObject({
      stored: 0,
      valid: false,
      errors: [{ row: 4, field: 'bidirectional', key: 'products.validation.bidirectional' }],
    });
    const ok = await upload(t.app, staff, '/api/v1/products/import', file.split('\r\n').slice(0, 3).join('\r\n'));
    expect(ok.statusCode, ok.body).toBe(200);
    const listed = await t.app.inject({ url: `/api/v1/products?q=${encodeURIComponent(name)}&sort=name`, headers: { cookie: staff } });
    expect(listed.json().data.items.map((x: { name: string; bidirectional: boolean }) => [x.name, x.bidirectional])).toEqual([
      [name, true],
      [`${name} 2`, true],
      [`${name} 3`, false],
    ]);
  });
});
