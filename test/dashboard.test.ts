/**
 * The dashboard over hand-made data whose counts and first-pass yield are known, checked again after the
 * changes where kept counters go wrong: edits, deletes, imports, rolled-back writes, out-of-order records.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_DAYS, type Dashboard } from '../src/shared/contract/dashboard';
import { compactRequestCounts, pruneOpenDisagreements } from '../src/server/modules/dashboard/dashboard.repo';
import { rowsOf } from '../src/server/db/client';
import { buildTestApp, type TestApp } from './helpers/app';
import { addProduct, postRange, rangeBody, staffCookie, upload } from './helpers/catalogue';
import { adminCookie, createBench, postBatch, record } from './helpers/machine-data';
import { catalogue, lookup, postRequest, requestBody, testData } from './helpers/public';

let t: TestApp;
let staff: string;
let admin: string;

const DAY = 86_400_000;
const today = () => new Date().toISOString().slice(0, 10);
const dayBefore = (n: number) => new Date(Date.now() - n * DAY).toISOString().slice(0, 10);

async function dash(cookie = staff): Promise<Dashboard> {
  const res = await t.app.inject({ url: '/api/v1/dashboard', headers: { cookie } });
  expect(res.statusCode).toBe(200);
  return res.json().data as Dashboard;
}

const exec = (q: ReturnType<typeof sql>) => t.app.ctx.db.execute(q);

beforeAll(async () => {
  t = await buildTestApp();
  staff = await staffCookie(t);
  admin = await adminCookie(t);
});
afterAll(() => t.close());

describe('dashboard', () => {
  it('is for signed-in staff and admins only', async () => {
    expect((await t.app.inject({ url: '/api/v1/dashboard' })).statusCode).toBe(401);
    await dash(admin);
  });

  it('answers zeros and an empty window on an empty database', async () => {
    const d = await dash();
    expect(d).toMatchObject({
      products: 0,
      serials: { units: 0, ranges: 0 },
      lastReceivedAt: null,
      recentRequests: [],
      mail: { queued: 0, failed: 0 },
      firstPass: { units: 0, firstPass: 0 },
      requests: { total: 0, windowTotal: 0, windowNotFound: 0 },
      window: { from: dayBefore(DASHBOARD_DAYS - 1), to: today() },
    });
    expect(d.requests.perDay).toHaveLength(DASHBOARD_DAYS);
    expect(d.requests.perDay[0]!.day).toBe(dayBefore(DASHBOARD_DAYS - 1));
    expect(d.requests.perDay.at(-1)).toEqual({ day: today(), requests: 0, notFound: 0 });
  });

  it('counts products, ranges and units through adds, edits, moves, deletes and imports', async () => {
    const a = await addProduct(t.app, staff, { name: 'Dash Valve A' });
    const b = await addProduct(t.app, staff, { name: 'Dash Valve B' });
    const c = await addProduct(t.app, staff, { name: 'Dash Valve C' });
    const r1 = await postRange(t.app, staff, rangeBody(a.id, 'DA-0001', 'DA-0100', 100));
    const r2 = await postRange(t.app, staff, rangeBody(a.id, 'DA-0201', 'DA-0250', 50));
    const r3 = await postRange(t.app, staff, rangeBody(b.id, 'DB-0001', 'DB-0025', 25));
    for (const r of [r1, r2, r3]) expect(r.statusCode).toBe(201);
    expect(await dash()).toMatchObject({ products: 3, serials: { units: 175, ranges: 3 } });

    // Shrink range 2 to 40 units and move it to product C; delete range 3.
    const id2 = r2.json().data.id as string;
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/serial-ranges/${id2}`,
      headers: { cookie: staff },
      payload: rangeBody(c.id, 'DA-0201', 'DA-0240', 40),
    });
    expect(put.statusCode).toBe(200);
    expect(await dash()).toMatchObject({ serials: { units: 165, ranges: 3 } });
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/serial-ranges/${r3.json().data.id as string}`,
      headers: { cookie: staff },
    });
    expect(del.statusCode).toBe(200);
    expect(await dash()).toMatchObject({ serials: { units: 140, ranges: 2 } });

    // An import of two ranges (10 + 20 units); then one that fails on an overlap stores nothing.
    const header = 'product,startSerial,endSerial,totalUnits,productionDate\n';
    const good = `${header}Dash Valve B,DC-0001,DC-0010,10,2024-03-01\nDash Valve C,DC-0101,DC-0120,20,2024-03-01\n`;
    expect((await upload(t.app, staff, '/api/v1/serial-ranges/import', good)).statusCode).toBeLessThan(300);
    expect(await dash()).toMatchObject({ products: 3, serials: { units: 170, ranges: 4 } });
    const bad = `${header}Dash Valve B,DD-0001,DD-0010,10,2024-03-01\nDash Valve C,DC-0105,DC-0130,26,2024-03-01\n`;
    expect((await upload(t.app, staff, '/api/v1/serial-ranges/import', bad)).json().data).toMatchObject({ stored: 0, valid: false });
    expect(await dash()).toMatchObject({ products: 3, serials: { units: 170, ranges: 4 } });
    // Ranges written and rolled back in one transaction leave the counts as they were.
    await expect(
      t.app.ctx.db.transaction(async (tx) => {
        await tx.execute(
          sql`INSERT INTO serial_ranges (product_id, prefix, width, start_no, end_no, production_date) VALUES (${b.id}, 'DE-', 4, 1, 500, '2024-03-01')`,
        );
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await dash()).toMatchObject({ serials: { units: 170, ranges: 4 } });

    // Rows in the database agree with the kept counts.
    const [truth] = rowsOf<{ units: string; ranges: string }>(
      await exec(sql`SELECT sum(total_units)::text AS units, count(*)::text AS ranges FROM serial_ranges`),
    );
    expect(truth).toEqual({ units: '170', ranges: '4' });
  });

  it('computes the first-pass yield of units first tested in the window, whatever order records arrive in', async () => {
    const bench = await createBench(t.app, admin, 'Dash Bench');
    const ago = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
    const send = async (recs: Record<string, unknown>[]) => {
      const res = await postBatch(t.app, bench.key, { records: recs });
      expect(res.statusCode).toBe(200);
    };
    const shell = (serial: string, result: string, at: string) => record({ serial, testType: 'shell', result, testedAt: at });
    const seat = (serial: string, result: string, at: string) =>
      record({ serial, testType: 'seat', testPressure: 1.76, result, testedAt: at });
    await send([
      shell('DA-0001', 'pass', ago(5)),
      seat('DA-0001', 'pass', ago(5)), // unit 1: first pass
      shell('DA-0002', 'fail', ago(5)),
      shell('DA-0002', 'pass', ago(4)),
      seat('DA-0002', 'pass', ago(4)), // unit 2: shell retested
      seat('DA-0003', 'pass', ago(5)),
      shell('DA-0003', 'fail', ago(4)),
      shell('DA-0003', 'pass', ago(3)), // unit 3: later type failed first
      shell('DA-0004', 'pass', ago(3)), // unit 4: an earlier failed attempt arrives later (below)
      shell('DA-0005', 'fail', ago(40 * 24)),
      shell('DA-0005', 'pass', ago(2)), // unit 5: first tested 40 days ago: outside
      shell('DA-0006', 'pass', ago(2)),
      seat('DA-0006', 'fail', ago(2)),
      seat('DA-0006', 'pass', ago(2)), // unit 6: a tie counts as a fail first
      shell('DA-0007', 'pass', ago(1)), // unit 7: first pass
    ]);
    expect((await dash()).firstPass).toEqual({ units: 6, firstPass: 3 }); // 1, 4, 7 (4's failure not sent yet)
    await send([shell('DA-0004', 'fail', ago(6))]);
    expect((await dash()).firstPass).toEqual({ units: 6, firstPass: 2 });
    // A resent batch (duplicates) changes nothing.
    await send([shell('DA-0004', 'fail', ago(6))]);
    expect((await dash()).firstPass).toEqual({ units: 6, firstPass: 2 });

    // Deleting unit 2's failed attempt makes its first attempt a pass; deleting all of unit 7's tests removes it.
    await exec(sql`DELETE FROM test_records WHERE serial = 'DA-0002' AND result = 'fail'`);
    expect((await dash()).firstPass).toEqual({ units: 6, firstPass: 3 });
    await exec(sql`DELETE FROM test_records WHERE serial = 'DA-0007'`);
    expect((await dash()).firstPass).toEqual({ units: 5, firstPass: 2 });
    // Deleting unit 5's old failure moves its first test into the window, passed.
    await exec(sql`DELETE FROM test_records WHERE serial = 'DA-0005' AND result = 'fail'`);
    expect((await dash()).firstPass).toEqual({ units: 6, firstPass: 3 });

    // A rolled-back insert leaves the figure as it was.
    await expect(
      t.app.ctx.db.transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO test_records (record_id, serial, prefix, width, serial_no, test_type, medium, test_pressure, holding_seconds, result, tested_at, content_hash)
          VALUES ('rolled-back', 'DA-0099', 'DA-', 4, 99, 'shell', 'water', 1, 1, 'fail', now(), decode(repeat('00', 32), 'hex'))`);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await dash()).firstPass).toEqual({ units: 6, firstPass: 3 });

    const [last] = rowsOf<{ at: Date | string }>(await exec(sql`SELECT max(received_at) AS at FROM test_records`));
    expect((await dash()).lastReceivedAt).toBe(new Date(last!.at).toISOString());
  });

  it('counts units waiting on a disagreement through retests, judgement again, deletes and pruning', async () => {
    const product = await addProduct(t.app, staff, { name: 'Dash Valve D' });
    expect((await postRange(t.app, staff, rangeBody(product.id, 'DD-0001', 'DD-0020', 20))).statusCode).toBe(201);
    const bench = await createBench(t.app, admin, 'Dash Bench D');
    const send = async (recs: Record<string, unknown>[]) =>
      expect((await postBatch(t.app, bench.key, { records: recs })).statusCode).toBe(200);
    const at = (hour: number) => `2024-06-03T${String(hour).padStart(2, '0')}:00:00.000Z`;
    const test = (serial: string, testType: string, hour: number) =>
      record({ serial, testType, testPressure: testType === 'seat' ? 1.76 : 2.4, testedAt: at(hour) });
    const rejected = (where: ReturnType<typeof sql>) =>
      exec(sql`UPDATE test_records SET verdict = 'nonconforming', reasons = 1 WHERE serial LIKE 'DD-%' AND ${where}`);
    const kept = async () =>
      Number(
        rowsOf<{ n: unknown }>(
          await exec(
            sql`SELECT count(*) AS n FROM open_disagreements o JOIN test_records r ON r.id = o.record_id WHERE r.serial LIKE 'DD-%'`,
          ),
        )[0]!.n,
      );
    const base = (await dash()).disagreements;
    const open = async () => (await dash()).disagreements - base;

    await send([test('DD-0001', 'shell', 8), test('DD-0002', 'shell', 8), test('DD-0002', 'seat', 8), test('DD-0003', 'shell', 8)]);
    expect(await open()).toBe(0);
    // The standard rejects three bench passes of two units: each unit counts once.
    await rejected(sql`serial IN ('DD-0001', 'DD-0002')`);
    expect(await open()).toBe(2);
    expect(await kept()).toBe(3);

    // A later test of DD-0001's shell closes its disagreement at once.
    await send([test('DD-0001', 'shell', 9)]);
    expect(await open()).toBe(1);
    expect(await kept()).toBe(2);

    // A retest of another type leaves it open; a disagreement stored as such counts at once, and one that
    // arrives after its own retest does not.
    await send([test('DD-0002', 'shell', 10), test('DD-0004', 'shell', 9)]);
    await exec(sql`INSERT INTO test_records (record_id, serial, prefix, width, serial_no, test_type, medium, test_pressure, holding_seconds, result, verdict, reasons, tested_at, content_hash)
      VALUES ('dd-stored', 'DD-0003', 'DD-', 4, 3, 'seat', 'water', 1.76, 60, 'pass', 'nonconforming', 1, ${at(11)}, decode(repeat('00', 32), 'hex')),
             ('dd-late', 'DD-0004', 'DD-', 4, 4, 'shell', 'water', 2.4, 60, 'pass', 'nonconforming', 1, ${at(8)}, decode(repeat('00', 32), 'hex'))`);
    expect(await open()).toBe(2);

    // A row a race of two writers left behind (its retest stored unseen beside it) is counted until the
    // pruning finds the retest.
    await exec(sql`INSERT INTO open_disagreements (record_id, prefix, width, serial_no, test_type, tested_at)
      SELECT id, prefix, width, serial_no, test_type, tested_at FROM test_records WHERE record_id = 'dd-late'`);
    expect(await open()).toBe(3);
    expect(await pruneOpenDisagreements(t.app.ctx.db)).toBe(1);
    expect(await open()).toBe(2);

    // Deleting DD-0001's retest opens its disagreement again, kept again though the pruning had dropped it.
    await exec(sql`DELETE FROM test_records WHERE serial = 'DD-0001' AND tested_at = ${at(9)}`);
    expect(await open()).toBe(3);
    await pruneOpenDisagreements(t.app.ctx.db);
    expect(await open()).toBe(3);

    // Judged again as conforming (a standard's figure changed): no longer counted, and pruned.
    await exec(sql`UPDATE test_records SET verdict = 'conforms', reasons = 0 WHERE serial = 'DD-0002'`);
    expect(await open()).toBe(2);
    await pruneOpenDisagreements(t.app.ctx.db);
    expect(await kept()).toBe(2);
    // A rolled-back disagreement leaves nothing kept.
    await expect(
      t.app.ctx.db.transaction(async (tx) => {
        await tx.execute(
          sql`UPDATE test_records SET verdict = 'nonconforming', reasons = 1 WHERE serial = 'DD-0003' AND test_type = 'shell'`,
        );
        await tx.execute(sql`INSERT INTO test_records (record_id, serial, prefix, width, serial_no, test_type, medium, test_pressure, holding_seconds, result, verdict, reasons, tested_at, content_hash)
          VALUES ('dd-rolled-back', 'DD-0005', 'DD-', 4, 5, 'shell', 'water', 2.4, 60, 'pass', 'nonconforming', 1, ${at(12)}, decode(repeat('00', 32), 'hex'))`);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await kept()).toBe(2);
    expect(await open()).toBe(2);
  });

  it('counts requests per day and not-found lookups, lists the last five report requests, and counts the mail queue', async () => {
    const before = await dash();
    const cat = await catalogue(t);
    await testData(t, cat.serial(1));
    // Two not-found lookups through the API (recorded after the answer), and one report request for two serials.
    expect((await lookup(t.app, cat.serial(101))).statusCode).toBe(404);
    expect((await lookup(t.app, cat.serial(102))).statusCode).toBe(404);
    await t.app.ctx.afterResponse.idle();
    const req = await postRequest(t.app, requestBody({ serials: [cat.serial(1), cat.serial(2)], email: 'jane.doe@example.com' }));
    expect(req.statusCode).toBeLessThan(300);

    // Older requests written straight to the table: 3 days ago one report request and a lookup, 40 days ago a lookup.
    const row = (source: string, status: string, days: number, email: string | null) =>
      sql`(gen_random_uuid(), ${source}, 'X-1', ${email}, 'en', ${status}, now() - make_interval(days => ${days}))`;
    await exec(sql`INSERT INTO search_requests (group_id, source, serial, recipient_email, language, status, created_at) VALUES
      ${row('request', 'sent', 3, 'old@example.com')}, ${row('lookup', 'not-found', 3, null)}, ${row('lookup', 'not-found', 40, null)}`);

    let d = await dash();
    expect(d.requests.total - before.requests.total).toBe(6);
    expect(d.requests.windowTotal - before.requests.windowTotal).toBe(5);
    expect(d.requests.windowNotFound - before.requests.windowNotFound).toBe(3);
    expect(d.requests.perDay.find((p) => p.day === dayBefore(3))).toEqual({ day: dayBefore(3), requests: 2, notFound: 1 });
    expect(d.requests.perDay.at(-1)).toEqual({ day: today(), requests: 3, notFound: 2 });
    // Newest first: today's request (two serials, its email queued), then the one of 3 days ago.
    expect(d.recentRequests.slice(0, 2)).toMatchObject([
      { email: 'j***@e***.com', serials: 2, status: 'queued' },
      { email: 'o***@e***.com', serials: 1, status: 'sent' },
    ]);
    expect((await dash(admin)).recentRequests[0]!.email).toBe('jane.doe@example.com');
    expect(d.mail.queued).toBeGreaterThanOrEqual(1);

    // Mail: one more failed for good, one queued taken out of the queue.
    const [q] = rowsOf<{ queued: string; failed: string }>(
      await exec(
        sql`SELECT count(*) FILTER (WHERE status IN ('queued', 'sending'))::text AS queued, count(*) FILTER (WHERE status = 'failed')::text AS failed FROM mail_outbox`,
      ),
    );
    expect(d.mail).toEqual({ queued: Number(q!.queued), failed: Number(q!.failed) });
    await exec(sql`UPDATE mail_outbox SET status = 'failed' WHERE id = (SELECT id FROM mail_outbox WHERE status = 'queued' LIMIT 1)`);
    expect((await dash()).mail).toEqual({ queued: Number(q!.queued) - 1, failed: Number(q!.failed) + 1 });

    // Five newest only; a rolled-back insert counts nothing; compaction changes no figure; a delete counts down.
    for (let i = 0; i < 5; i++)
      await exec(
        sql`INSERT INTO search_requests (group_id, source, serial, recipient_email, language, status) VALUES (gen_random_uuid(), 'request', 'X-2', ${`v${i}@example.com`}, 'en', 'held')`,
      );
    await expect(
      t.app.ctx.db.transaction(async (tx) => {
        await tx.execute(
          sql`INSERT INTO search_requests (group_id, source, serial, language, status) VALUES (gen_random_uuid(), 'lookup', 'X-3', 'en', 'not-found')`,
        );
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    d = await dash();
    expect(d.recentRequests).toHaveLength(5);
    expect(d.recentRequests.every((r) => r.status === 'held')).toBe(true);
    expect(d.requests.total - before.requests.total).toBe(11);
    const countRows = async () => rowsOf<{ n: number }>(await exec(sql`SELECT count(*)::int AS n FROM search_request_counts`))[0]!.n;
    const rowsBefore = await countRows();
    await compactRequestCounts(t.app.ctx.db);
    expect(await countRows()).toBeLessThan(rowsBefore);
    expect(await dash()).toEqual(d);
    await exec(sql`DELETE FROM search_requests WHERE serial = 'X-1' AND source = 'lookup'`);
    const after = await dash();
    expect(after.requests.total - before.requests.total).toBe(9);
    expect(after.requests.windowNotFound - before.requests.windowNotFound).toBe(2);
  });
});
