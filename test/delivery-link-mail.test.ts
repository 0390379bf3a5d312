/**
 * The delivery link's emails end to end against a real SMTP server and the real outbox worker: "I have a
 * delivery" on /search answers the same whatever is found and mails a link only to an address of the
 * delivery's customer (a contact, or at one of its domains); the email names customer, PO, delivery and
 * units in the recipient's language, carries the link that opens the delivery, and its row keeps no
 * token once sent; staff's re-send reaches each contact in their language; a burst does not fail.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startBackgroundWork } from '../src/server/background';
import { rowsOf } from '../src/server/db/client';
import { buildTestApp, type TestApp } from './helpers/app';
import { contactEmail, releasedDelivery, type Released } from './helpers/deliveries';
import { randomIp } from './helpers/factories';
import { solvedChallengeFast } from './helpers/pow';
import type { Db } from '../src/server/db/client';
import { requestDeliveryLink } from '../src/server/modules/orders/delivery-links.service';
import { startSmtpSink, type ReceivedMessage, type SmtpSink } from './helpers/smtp-sink';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

let sink: SmtpSink;
let t: TestApp;
let stopBackground: () => Promise<void>;
let r: Released;
let other: Released;
let unreleased: Released;
const contact = contactEmail('contact');
const domain = `buyer-${Date.now()}.example.com`;
const otherContact = contactEmail('other');
const unreleasedContact = contactEmail('open');

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await buildTestApp({ SMTP_URL: sink.url, PUBLIC_BASE_URL: 'https://reports.example.com' });
  stopBackground = await startBackgroundWork(t.app);
  // Contacts who do not receive certificates: the release sends them nothing, so that every email here is
  // one the request sent. They are still the customer's addresses.
  r = await releasedDelivery(t, {
    units: 2,
    contacts: [{ name: 'Mei', email: contact, language: 'zh', receivesCertificates: false }],
    emailDomains: [domain],
  });
  other = await releasedDelivery(t, { units: 1, contacts: [{ name: 'Olaf', email: otherContact, receivesCertificates: false }] });
  unreleased = await releasedDelivery(t, { units: 1, release: false, contacts: [{ name: 'Ola', email: unreleasedContact }] });
});
afterAll(async () => {
  await stopBackground();
  await t.close();
  await sink.close();
});

async function ask(body: Record<string, unknown>, ip = randomIp()) {
  const payload = 'challenge' in body ? body : { ...body, challenge: await solvedChallengeFast(t.app) };
  return t.app.inject({ method: 'POST', url: '/api/v1/public/delivery-links', payload, remoteAddress: ip });
}

async function mailTo(address: string, nth = 1): Promise<ReceivedMessage> {
  return vi.waitFor(
    () => {
      const m = sink.messages.filter((x) => x.to.some((to) => to.toLowerCase() === address.toLowerCase()))[nth - 1];
      if (!m) throw new Error(`no mail number ${nth} to ${address} yet`);
      return m;
    },
    { timeout: 30_000, interval: 50 },
  );
}

const outboxTo = async (address: string) =>
  rowsOf<{ status: string; token: string | null }>(
    await t.app.ctx.db.execute(sql`SELECT status, ref->>'token' AS token FROM mail_outbox WHERE lower(recipient) = lower(${address})`),
  );

const linkOf = (m: ReceivedMessage) =>
  /https:\/\/reports\.example\.com\/search\?delivery=([A-Za-z0-9_-]{43})/.exec(m.parsed!.text ?? '')?.[1];

describe('"I have a delivery"', () => {
  it('answers the same in every case and mails a link only to an address of the delivery customer', async () => {
    const atDomain = `someone-${Date.now()}@${domain.toUpperCase()}`;
    const cases = [
      { deliveryNumber: r.delivery.number.toLowerCase(), email: contact.toUpperCase(), language: 'zh' }, // a contact, any case (the address is kept lower-cased)
      { deliveryNumber: r.delivery.number, email: atDomain, language: 'en' }, // at the customer's domain
      { deliveryNumber: 'D-NO-SUCH', email: contactEmail('nobody'), language: 'en' }, // no such delivery
      { deliveryNumber: r.delivery.number, email: otherContact, language: 'en' }, // another customer's contact
      { deliveryNumber: unreleased.delivery.number, email: unreleasedContact, language: 'en' }, // not released
    ];
    const answers = [];
    for (const c of cases) answers.push(await ask(c));
    for (const a of answers) expect(a.statusCode).toBe(200);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(answers[0]!.json().data.message).toBe(
      'If this delivery was released to your company and this address is one of its addresses, a link to its certificates is on its way to it.',
    );

    const zh = await mailTo(contact.toUpperCase());
    expect(zh.parsed!.subject).toBe(`出貨 ${r.delivery.number} 的證書（採購單 ${r.purchaseOrder.number}）`);
    expect(zh.parsed!.text).toContain(r.customer.name);
    expect(zh.parsed!.text).toContain('產品數：2');
    expect(zh.raw.toString()).toMatch(/^Auto-Submitted: auto-generated\r?$/m);
    const token = linkOf(zh);
    expect(token).toBeDefined();
    const opened = await t.app.inject({ url: `/api/v1/public/deliveries/${token}`, remoteAddress: randomIp() });
    expect(opened.json().data.delivery.number).toBe(r.delivery.number);

    const en = await mailTo(atDomain);
    expect(en.parsed!.subject).toBe(`Certificates of delivery ${r.delivery.number} (PO ${r.purchaseOrder.number})`);
    expect(en.parsed!.text).toContain('(units: 2)');
    expect(linkOf(en)).not.toBe(token);

    // Sent: the rows keep no token. Nothing was ever queued for the other three (their lookups, done after
    // the answer, have all finished).
    await t.app.ctx.afterResponse.idle();
    await vi.waitFor(async () => expect(await outboxTo(atDomain)).toEqual([{ status: 'sent', token: null }]), { timeout: 10_000 });
    expect(await outboxTo(contact)).toEqual([{ status: 'sent', token: null }]);
    for (const c of cases.slice(2)) expect(await outboxTo(c.email)).toEqual([]);
    const links = (await t.app.inject({ url: `/api/v1/deliveries/${r.delivery.id}`, headers: { cookie: r.cookie } })).json().data.links;
    // Both lookups run after their answers, so either link may be made first.
    const made = links.map((l: { source: string; sentTo: string[] }) => [l.source, l.sentTo]);
    // sort() compares the pairs as strings ('request,<address>'), so it orders them by address.
    expect(made.sort()).toEqual([
      ['request', [contact]],
      ['request', [atDomain.toLowerCase()]],
    ]);
    expect(
      (await t.app.inject({ url: `/api/v1/deliveries/${other.delivery.id}`, headers: { cookie: r.cookie } })).json().data.links,
    ).toEqual([]);
  });

  it('decides its answer before it looks anything up, so that its time cannot tell who bought what', () => {
    // A database that fails if touched: the answer is written with no read, and the lookup waits in `later`.
    const untouchable = new Proxy({} as Db, {
      get: () => {
        throw new Error('the database was read before the answer');
      },
    });
    const deferred: string[] = [];
    const answer = requestDeliveryLink(
      {
        db: untouchable,
        publicBaseUrl: 'https://reports.example.com',
        kick: () => undefined,
        later: { run: (label) => deferred.push(label) },
      },
      { deliveryNumber: r.delivery.number, email: contact, language: 'en' },
      'en',
    );
    expect(answer.message).toMatch(/^If this delivery was released to your company/);
    expect(deferred).toEqual(['delivery link request']);
  });

  it('checks its input and its proof-of-work as the report request does', async () => {
    const bad = await ask({ deliveryNumber: '', email: 'not-an-address', language: 'fr' });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .error.fields.map((f: { field: string }) => f.field)
        .sort(),
    ).toEqual(['deliveryNumber', 'email', 'language']);
    const noChallenge = await ask({ deliveryNumber: 'D-1', email: contactEmail(), language: 'en', challenge: '' });
    expect(noChallenge.statusCode).toBe(400);
    const challenge = await solvedChallengeFast(t.app);
    expect((await ask({ deliveryNumber: 'D-1', email: contactEmail(), language: 'en', challenge })).statusCode).toBe(200);
    const replay = await ask({ deliveryNumber: 'D-1', email: contactEmail(), language: 'en', challenge });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error.key).toBe('publicApi.challengeUsed');
  });

  it('limits the emails to one address, whether or not it is a contact', async () => {
    const address = contactEmail('limited');
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await ask({ deliveryNumber: 'D-NONE', email: address, language: 'en' })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('takes 50 requests at once without a failure', async () => {
    const bodies = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => ({
        deliveryNumber: i % 2 ? r.delivery.number : 'D-NONE',
        email: i % 5 === 0 ? `burst-${i}@${domain}` : contactEmail('burst'),
        language: 'en',
        challenge: await solvedChallengeFast(t.app),
      })),
    );
    const answers = await Promise.all(bodies.map((b) => ask(b)));
    for (const a of answers) expect([200, 429]).toContain(a.statusCode);
    expect(answers.filter((a) => a.statusCode === 200).length).toBeGreaterThan(40);
  });
});

describe("staff's re-send", () => {
  it('reaches each certificate contact in their language with a link that opens the delivery', async () => {
    const en = contactEmail('resend-en');
    const zh = contactEmail('resend-zh');
    const d = await releasedDelivery(t, {
      units: 1,
      contacts: [
        { name: 'E', email: en, language: 'en' },
        { name: 'Z', email: zh, language: 'zh' },
      ],
    });
    // The release's own emails first, so that the re-send's are the second to each address whatever the
    // mail worker's timing.
    await Promise.all([mailTo(en), mailTo(zh)]);
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/deliveries/${d.delivery.id}/links`, headers: { cookie: d.cookie } });
    expect(res.statusCode).toBe(200);
    const [me, mz] = [await mailTo(en, 2), await mailTo(zh, 2)];
    expect(me.parsed!.text).toContain('because this address receives the certificates of');
    expect(mz.parsed!.text).toContain('此地址接收');
    expect(linkOf(me)).toBe(linkOf(mz));
    expect((await t.app.inject({ url: `/api/v1/public/deliveries/${linkOf(me)}` })).statusCode).toBe(200);
    // Revoked: the emailed link opens nothing.
    await t.app.inject({ method: 'POST', url: `/api/v1/deliveries/${d.delivery.id}/links/revoke`, headers: { cookie: d.cookie } });
    expect((await t.app.inject({ url: `/api/v1/public/deliveries/${linkOf(me)}` })).statusCode).toBe(404);
  });
});
