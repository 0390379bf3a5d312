/**
 * The buyer's delivery link on the real app and database: the index (content, superseded versions, its
 * JSON Schema), the 404 of unknown, malformed and revoked tokens alike, the ZIP (checked by an independent
 * unzip, each PDF's SHA-256 against the index), staff's re-send and revoke with their audit entries and
 * refusals, and who may call them.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { publicDeliveryIndex } from '../src/shared/contract/delivery-links';
import { rowsOf } from '../src/server/db/client';
import { issueReport } from '../src/server/modules/reports/issue';
import { randomToken } from '../src/server/lib/crypto';
import { buildTestApp, type TestApp } from './helpers/app';
import { contactEmail, linkTo, releasedDelivery, type Released } from './helpers/deliveries';
import { testData } from './helpers/public';
import { randomIp } from './helpers/factories';
import { schemaErrors } from './helpers/json-schema';
import { checkZip, readZip } from './helpers/unzip';
import { poppler, tmpFile } from './helpers/reports';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const open = (token: string) => t.app.inject({ url: `/api/v1/public/deliveries/${token}`, remoteAddress: randomIp() });
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const staffPost = (r: Released, url: string) => t.app.inject({ method: 'POST', url, headers: { cookie: r.cookie } });
const rows = async <T>(q: ReturnType<typeof sql>) => rowsOf<T>(await t.app.ctx.db.execute(q));

describe('the index', () => {
  let r: Released;
  let token: string;
  beforeAll(async () => {
    r = await releasedDelivery(t, { units: 3, tags: ['A/1', 'A:1', ''] });
    token = (await linkTo(t, r.delivery.id)).token;
  });

  it('lists every unit with its newest certificate, private to the link', async () => {
    const res = await open(token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    const index = publicDeliveryIndex.parse(res.json().data);
    expect(index).toMatchObject({
      schema: 'test-report-center/delivery-index',
      schemaVersion: 2,
      customer: { name: r.customer.name, code: r.customer.code },
      purchaseOrder: { number: r.purchaseOrder.number, date: '2024-05-01', documentType: '3.1' },
      delivery: { number: r.delivery.number, date: '2024-05-02' },
    });
    expect(index.delivery.releasedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(index.units).toEqual(
      r.units.map((u) => ({
        serial: u.serial,
        tag: u.tag,
        line: 10,
        buyerItemCode: 'BIC-77',
        product: expect.any(String),
        productZh: '',
        verdict: 'pass',
        reportNumber: u.reportNumber,
        reportId: u.reportId,
        sha256: u.sha256,
        issuedAt: expect.stringMatching(/Z$/),
        superseded: [],
      })),
    );
  });

  it('is served on a report host name, which serves only /search and the public API', async () => {
    const headers = { host: 'reports.example.com' };
    const index = await t.app.inject({ url: `/api/v1/public/deliveries/${token}`, headers, remoteAddress: randomIp() });
    expect(index.statusCode).toBe(200);
    const zip = await t.app.inject({ url: `/api/v1/public/deliveries/${token}.zip`, headers, remoteAddress: randomIp() });
    expect(zip.statusCode).toBe(200);
    const staff = await t.app.inject({
      method: 'POST',
      url: `/api/v1/deliveries/${r.delivery.id}/links`,
      headers: { ...headers, cookie: r.cookie },
    });
    expect(staff.statusCode).toBe(403);
  });

  it('is described by docs/schemas/delivery-index.schema.json, generated from the contract', async () => {
    const committed = JSON.parse(fs.readFileSync('docs/schemas/delivery-index.schema.json', 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(z.toJSONSchema(publicDeliveryIndex))));
    const index = (await open(token)).json().data;
    expect(schemaErrors(committed, index)).toEqual([]);
    // and the check does check: a unit without its hash, a wrong schema name
    const { sha256: _, ...withoutHash } = index.units[0];
    expect(schemaErrors(committed, { ...index, schema: 'other', units: [withoutHash] })).toEqual([
      '$.schema: not "test-report-center/delivery-index"',
      '$.units[0].sha256: missing',
    ]);
  });

  it('streams a ZIP of every newest PDF named by tag, else serial, with index.json and index.csv', async () => {
    const res = await open(`${token}.zip`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toContain(`delivery-${r.delivery.number}.zip`);
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    const bytes = res.rawPayload;
    expect(checkZip(bytes)).toMatch(/No errors|Done testing|OK/i);
    const entries = readZip(bytes);
    expect(entries.map((e) => e.name)).toEqual(['index.json', 'index.csv', 'A_1.pdf', 'A_1-2.pdf', `${r.units[2]!.serial}.pdf`]);
    const index = publicDeliveryIndex.parse(JSON.parse(entries[0]!.data.toString('utf8')));
    expect(index).toEqual((await open(token)).json().data);
    const csv = entries[1]!.data
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(csv[0]).toBe('serial,tag,line,buyerItemCode,product,verdict,reportNumber,sha256');
    expect(csv.slice(1)).toEqual(
      index.units.map((u) => [u.serial, u.tag, 10, 'BIC-77', u.product, 'pass', u.reportNumber, u.sha256].join(',')),
    );
    entries.slice(2).forEach((e, i) => {
      expect(e.data.subarray(0, 5).toString()).toBe('%PDF-');
      expect(sha256(e.data)).toBe(index.units[i]!.sha256);
    });
  });
});

describe('superseded certificates', () => {
  it('lists the earlier versions of a unit, newest first, and serves only the newest', async () => {
    const r = await releasedDelivery(t, { units: 1 });
    const [u] = r.units;
    const db = t.app.ctx.db;
    // Two corrections: a Chinese version, then new test data: each a new certificate of the unit.
    const v2 = await issueReport(db, { serial: u!.serial, language: 'zh', publicBaseUrl: t.config.publicBaseUrl });
    await testData(t, u!.serial);
    const v3 = await issueReport(db, { serial: u!.serial, language: 'en', publicBaseUrl: t.config.publicBaseUrl });
    if (v2.status !== 'issued' || v3.status !== 'issued') throw new Error('not issued');
    expect(new Set([u!.reportId, v2.report.id, v3.report.id]).size).toBe(3);
    await db.execute(sql`UPDATE reports SET delivery_unit_id = (SELECT id FROM delivery_units WHERE delivery_id = ${r.delivery.id}::uuid)
      WHERE id IN (${v2.report.id}, ${v3.report.id})`);
    await db.execute(sql`UPDATE reports SET superseded_by = ${v2.report.id} WHERE id = ${u!.reportId}`);
    await db.execute(sql`UPDATE reports SET superseded_by = ${v3.report.id} WHERE id = ${v2.report.id}`);
    await db.execute(sql`UPDATE delivery_units SET report_id = ${v3.report.id} WHERE delivery_id = ${r.delivery.id}::uuid`);

    const { token } = await linkTo(t, r.delivery.id);
    const unit = (await open(token)).json().data.units[0];
    expect(unit).toMatchObject({ reportId: v3.report.id, reportNumber: v3.report.number, sha256: v3.report.sha256 });
    expect(unit.superseded).toEqual([
      { reportId: v2.report.id, reportNumber: v2.report.number, sha256: v2.report.sha256, issuedAt: expect.stringMatching(/Z$/) },
      { reportId: u!.reportId, reportNumber: u!.reportNumber, sha256: u!.sha256, issuedAt: expect.stringMatching(/Z$/) },
    ]);
    const pdfs = readZip((await open(`${token}.zip`)).rawPayload).filter((e) => e.name.endsWith('.pdf'));
    expect(pdfs.map((e) => sha256(e.data))).toEqual([v3.report.sha256]);
  });
});

describe('tokens that open nothing', () => {
  it('answers unknown, malformed, revoked and not-released tokens with the same 404', async () => {
    const r = await releasedDelivery(t, { units: 1 });
    const live = await linkTo(t, r.delivery.id);
    const open_ = await releasedDelivery(t, { units: 1, release: false });
    const notReleased = await linkTo(t, open_.delivery.id);
    expect((await open(live.token)).statusCode).toBe(200);
    expect((await staffPost(r, `/api/v1/deliveries/${r.delivery.id}/links/revoke`)).statusCode).toBe(200);

    const answers = await Promise.all(
      [
        randomToken(32),
        'abc',
        'not a token!',
        'x'.repeat(400),
        `${'A'.repeat(43)}.zip`,
        live.token,
        `${live.token}.zip`,
        notReleased.token,
      ].map(open),
    );
    for (const a of answers) expect(a.statusCode).toBe(404);
    const bodies = new Set(answers.map((a) => a.body));
    expect(bodies.size).toBe(1);
    expect(answers[0]!.json().error.message).toBe('This delivery link is not valid: it may be incomplete, or it has ended');
  });
});

describe("another customer's order", () => {
  it("is not reachable through a link: another delivery's id, number or certificate after a live token gives the same 404", async () => {
    const mine = await releasedDelivery(t, { units: 1 });
    const theirs = await releasedDelivery(t, { units: 1 });
    const { token } = await linkTo(t, mine.delivery.id);
    const unknown = await open(randomToken(32));
    const tries = [
      `${token}/${theirs.delivery.id}`,
      `${token}/${theirs.delivery.number}`,
      `${token}/${theirs.units[0]!.reportId}`,
      `${token}/${theirs.units[0]!.reportId}.zip`,
      `${theirs.delivery.id}`,
      `${theirs.delivery.id}.zip`,
      `${theirs.delivery.number}`,
    ];
    for (const path of tries) {
      const res = await open(path);
      expect(res.statusCode, path).toBe(404);
      expect(res.body, path).toBe(unknown.body);
    }
    // The link's own index and ZIP name only its own delivery and certificates.
    const index = (await open(token)).json().data;
    expect(index.delivery.number).toBe(mine.delivery.number);
    expect(JSON.stringify(index)).not.toContain(theirs.customer.name);
    expect(JSON.stringify(index)).not.toContain(theirs.units[0]!.reportId);
    const zip = await t.app.inject({ url: `/api/v1/public/deliveries/${token}.zip`, remoteAddress: randomIp() });
    expect(zip.statusCode).toBe(200);
    const names = readZip(zip.rawPayload).map((e) => e.name);
    expect(names.filter((n) => n.endsWith('.pdf'))).toEqual([`${mine.units[0]!.serial}.pdf`]);
  });
});

describe("a unit's certificate in each rendering", () => {
  it('is served in English, Chinese and both side by side under the one number; bad input is refused, others are 404', async () => {
    const mine = await releasedDelivery(t, { units: 1 });
    const theirs = await releasedDelivery(t, { units: 1 });
    const { token } = await linkTo(t, mine.delivery.id);
    const unit = mine.units[0]!;
    const pdf = (serial: string, query = '') => open(`${token}/${encodeURIComponent(serial)}.pdf${query}`);
    const texts: Record<string, string> = {};
    for (const language of ['en', 'zh', 'bilingual'] as const) {
      const res = await pdf(unit.serial, `?language=${language}`);
      expect(res.statusCode, language).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['cache-control']).toBe('no-store');
      texts[language] = poppler('pdftotext', [tmpFile(res.rawPayload, `unit-${language}.pdf`), '-']);
      // One certificate: every rendering carries the number the release gave it, and names the order.
      expect(texts[language], language).toContain(unit.reportNumber);
      expect(texts[language], language).toContain(mine.purchaseOrder.number);
    }
    expect(texts.en).toContain('Inspection Certificate');
    expect(texts.en).not.toContain('檢驗證明書');
    expect(texts.zh).toContain('檢驗證明書');
    expect(texts.bilingual).toContain('檢驗證明書 Inspection Certificate');
    expect(texts.bilingual).toContain('序號 Serial');
    // Asked again: the stored rendering, not a new one.
    const again = await pdf(unit.serial, '?language=bilingual');
    const stored = await rows<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM reports WHERE serial = ${unit.serial} AND language = 'bilingual'`,
    );
    expect([again.statusCode, Number(stored[0]!.n)]).toEqual([200, 1]);
    expect((await pdf(unit.serial, '?language=fr')).statusCode).toBe(400);
    // No language asked: the release's own rendering, the very file the ZIP carries.
    const plain = await pdf(unit.serial);
    expect([plain.statusCode, createHash('sha256').update(plain.rawPayload).digest('hex')]).toEqual([200, unit.sha256]);
    const unknown = await open(randomToken(32));
    for (const res of [
      await pdf(theirs.units[0]!.serial, '?language=en'),
      await open(`${randomToken(32)}/${encodeURIComponent(unit.serial)}.pdf`),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.body).toBe(unknown.body);
    }
  });
});

describe('staff: re-send and revoke', () => {
  it('re-sends a new link to the contacts who receive certificates, each in their language, and audits it', async () => {
    const en = contactEmail('en');
    const zh = contactEmail('zh');
    const r = await releasedDelivery(t, {
      units: 1,
      contacts: [
        { name: 'Ann', email: en, language: 'en' },
        { name: 'Bo', email: contactEmail('no'), receivesCertificates: false },
        { name: 'Chen', email: zh, language: 'zh' },
      ],
    });
    const res = await staffPost(r, `/api/v1/deliveries/${r.delivery.id}/links`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toBe("A new link was emailed to the customer's certificate contacts");
    // The release's link first, then the one sent again.
    expect(body.data.links).toEqual([
      expect.objectContaining({ source: 'release', sentTo: [en, zh], revokedAt: null }),
      expect.objectContaining({ source: 'staff', sentTo: [en, zh], createdBy: expect.stringContaining('@'), revokedAt: null }),
    ]);
    const linkId = body.data.links[1].id as string;
    const mails = await rows<{ recipient: string; language: string; text_body: string; token: string }>(
      sql`SELECT recipient, language, text_body, ref->>'token' AS token FROM mail_outbox WHERE ref->>'deliveryLinkId' = ${linkId} ORDER BY recipient`,
    );
    expect(mails.map((m) => [m.recipient, m.language]).sort()).toEqual([
      [en, 'en'],
      [zh, 'zh'],
    ]);
    // One link for both; the stored body has no link in it, only the stand-in.
    expect(new Set(mails.map((m) => m.token)).size).toBe(1);
    for (const m of mails) expect(m.text_body).not.toContain(m.token);
    const stored = await rows<{ hash: string }>(
      sql`SELECT encode(token_sha256, 'hex') AS hash FROM delivery_links WHERE id = ${linkId}::uuid`,
    );
    expect(stored[0]!.hash).toBe(createHash('sha256').update(mails[0]!.token).digest('hex'));
    expect((await open(mails[0]!.token)).statusCode).toBe(200);
    const audit = await rows<{ action: string; after: { sentTo: string[] } }>(
      sql`SELECT action, after FROM audit_log WHERE entity = 'delivery' AND entity_id = ${r.delivery.id} ORDER BY id DESC LIMIT 1`,
    );
    expect(audit[0]).toMatchObject({ action: 'sendLink', after: { sentTo: [en, zh] } });
  });

  it('refuses a delivery not released and a customer without a certificate contact (409)', async () => {
    const open_ = await releasedDelivery(t, { units: 1, release: false, contacts: [{ name: 'A', email: contactEmail() }] });
    const notReleased = await staffPost(open_, `/api/v1/deliveries/${open_.delivery.id}/links`);
    expect(notReleased.statusCode).toBe(409);
    expect(notReleased.json().error.key).toBe('deliveryLinks.notReleased');
    const r = await releasedDelivery(t, { units: 1, contacts: [{ name: 'A', email: contactEmail(), receivesCertificates: false }] });
    const noContact = await staffPost(r, `/api/v1/deliveries/${r.delivery.id}/links`);
    expect(noContact.statusCode).toBe(409);
    expect(noContact.json().error.key).toBe('deliveryLinks.noContact');
    expect((await t.app.inject({ url: `/api/v1/deliveries/${r.delivery.id}`, headers: { cookie: r.cookie } })).json().data.links).toEqual(
      [],
    );
    expect((await staffPost(r, '/api/v1/deliveries/00000000-0000-4000-8000-000000000000/links')).statusCode).toBe(404);
    expect((await staffPost(r, '/api/v1/deliveries/nope/links/revoke')).statusCode).toBe(404);
  });

  it('revokes every link, drops their waiting emails and their tokens, and audits it', async () => {
    const r = await releasedDelivery(t, { units: 1, contacts: [{ name: 'A', email: contactEmail() }] });
    const first = await linkTo(t, r.delivery.id);
    expect((await staffPost(r, `/api/v1/deliveries/${r.delivery.id}/links`)).statusCode).toBe(200);
    const res = await staffPost(r, `/api/v1/deliveries/${r.delivery.id}/links/revoke`);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Every link of this delivery has ended');
    // The release's, the one made here and the one sent again.
    const links = res.json().data.links as { revokedAt: string | null }[];
    expect(links).toHaveLength(3);
    for (const l of links) expect(l.revokedAt).not.toBeNull();
    expect((await open(first.token)).statusCode).toBe(404);
    const mails = await rows<{ status: string; token: string | null }>(
      sql`SELECT status, ref->>'token' AS token FROM mail_outbox WHERE ref->>'deliveryId' = ${r.delivery.id}`,
    );
    expect(mails.length).toBe(3);
    for (const m of mails) expect(m).toEqual({ status: 'failed', token: null });
    const audit = await rows<{ action: string; after: { revoked: number } }>(
      sql`SELECT action, after FROM audit_log WHERE entity = 'delivery' AND entity_id = ${r.delivery.id} ORDER BY id DESC LIMIT 1`,
    );
    expect(audit[0]).toEqual({ action: 'revokeLinks', after: { revoked: 3 } });
  });

  it('is for signed-in staff only: a visitor gets 401', async () => {
    const r = await releasedDelivery(t, { units: 0, release: false });
    for (const url of [`/api/v1/deliveries/${r.delivery.id}/links`, `/api/v1/deliveries/${r.delivery.id}/links/revoke`]) {
      const res = await t.app.inject({ method: 'POST', url });
      expect(res.statusCode).toBe(401);
    }
    const rows_ = await rows(sql`SELECT 1 FROM delivery_links WHERE delivery_id = ${r.delivery.id}::uuid`);
    expect(rows_).toEqual([]);
  });
});
