/**
 * Links that open this machine only: while PUBLIC_BASE_URL is unset or loopback, Settings say so and show the
 * address in use, every label is marked TEST, and a certificate says its link works only on the issuing
 * server; with a public address none of that shows.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLocalAddress } from '../src/shared/public-address';
import { issueReport } from '../src/server/modules/reports/issue';
import { buildTestApp, type TestApp } from './helpers/app';
import { poppler, tmpFile, unitWithRecords } from './helpers/reports';

describe('isLocalAddress', () => {
  it('tells loopback names from public ones', () => {
    for (const u of [
      'http://localhost:3000',
      'http://127.0.0.1:8080',
      'http://[::1]:3000',
      'http://app.localhost',
      'http://0.0.0.0',
      'not a url',
    ])
      expect(isLocalAddress(u), u).toBe(true);
    for (const u of ['https://reports.formosa-valves.example', 'http://10.0.0.5:3000', 'https://192.168.1.20'])
      expect(isLocalAddress(u), u).toBe(false);
  });
});

for (const [name, url, local] of [
  ['a localhost address', 'http://localhost:3000', true],
  ['a public address', 'https://reports.formosa-valves.example', false],
] as const) {
  describe(`with ${name}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp({ PUBLIC_BASE_URL: url });
    });
    afterAll(() => t.close());

    it('Settings show the address in use and whether it opens this machine only', async () => {
      const u = await unitWithRecords(t, [{ testType: 'shell' }, { testType: 'seat' }]);
      const res = await t.app.inject({ url: '/api/v1/settings', headers: { cookie: u.admin } });
      expect(res.json().data.publicAddress).toEqual({ url, local });

      const range = (
        await t.app.inject({ url: `/api/v1/serial-ranges?q=${encodeURIComponent(u.serial)}`, headers: { cookie: u.admin } })
      ).json().data.items[0];
      const labels = await t.app.inject({ url: `/api/v1/serial-ranges/${range.id}/labels.pdf`, headers: { cookie: u.admin } });
      expect(labels.statusCode).toBe(200);
      const text = execFileSync('pdftotext', ['-f', '1', '-l', '1', '-', '-'], { input: labels.rawPayload }).toString();
      expect(text).toContain(u.serial);
      expect(text.includes('TEST – not for valves')).toBe(local);

      const issued = await issueReport(t.app.ctx.db, { serial: u.serial, language: 'en', publicBaseUrl: url });
      if (issued.status !== 'issued') throw new Error(issued.status);
      const pdf = poppler('pdftotext', [tmpFile(Buffer.from(issued.report.bytes)), '-']).replace(/\s+/g, ' ');
      expect(pdf.includes('without a public address')).toBe(local);
    }, 60_000);
  });
}
