/**
 * The lookup says at once whether a found unit's test report can be sent (certificate-availability.ts):
 * `available` for a unit the release gate passes, `not-yet` for one without its tests, with a failed test
 * or (for a 3.1) an unreleased range; without the reason. The answer is kept per serial for a few seconds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AVAILABILITY_CACHE, CertificateAvailability } from '../src/server/modules/public/certificate-availability';
import { buildTestApp, type TestApp } from './helpers/app';
import { postBatch, record } from './helpers/machine-data';
import { curve, unitWithRecords } from './helpers/reports';

let t: TestApp;

const passing = [
  { testType: 'shell', testPressure: 2.4, holdingSeconds: 60, samples: curve(2.4, 60) },
  { testType: 'seat', testPressure: 1.76, holdingSeconds: 30, samples: curve(1.76, 30) },
];

async function lookup(serial: string) {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/public/lookup', payload: { serial } });
  expect(res.statusCode).toBe(200);
  return res.json().data as Record<string, unknown>;
}

beforeAll(async () => {
  t = await buildTestApp();
});

afterAll(async () => {
  await t?.close();
});

describe('the lookup says whether the report can be sent', () => {
  it('answers available for a unit that passed its tests, not-yet for one without tests or with a failed one', async () => {
    const ok = await unitWithRecords(t, passing);
    expect(await lookup(ok.serial)).toMatchObject({ serial: ok.serial, certificate: 'available' });

    const untested = await unitWithRecords(t, []);
    const said = await lookup(untested.serial);
    expect(said.certificate).toBe('not-yet');
    // Nothing of why: the facts the lookup always gave, and the state.
    expect(Object.keys(said).sort()).toEqual(Object.keys(await lookup(ok.serial)).sort());
    expect(JSON.stringify(said)).not.toMatch(/held|missing|fail|release/i);

    const failed = await unitWithRecords(t, [passing[0]!, { ...passing[1]!, result: 'fail' }]);
    expect((await lookup(failed.serial)).certificate).toBe('not-yet');
  });

  it('keeps an answer per serial for its time, then answers it once more while reading the gate again', async () => {
    let now = 1_000_000;
    const availability = new CertificateAvailability(t.app.ctx.db, t.app.ctx.afterResponse, () => now);
    const unit = await unitWithRecords(t, []);
    expect(await availability.available(unit.serial)).toBe(false);
    const r = await postBatch(t.app, unit.bench.key, { records: passing.map((o) => record({ serial: unit.serial, ...o })) });
    expect(r.statusCode).toBe(200);
    now += AVAILABILITY_CACHE.ttlMs - 1;
    expect(await availability.available(unit.serial)).toBe(false);
    now += 2;
    // Stale: this answer is the kept one, and it is read again after it.
    expect(await availability.available(unit.serial)).toBe(false);
    await availability.settled();
    expect(await availability.available(unit.serial)).toBe(true);
  });
});
