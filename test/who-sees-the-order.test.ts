/**
 * Who sees the order (docs/product.md): the public serial request emails a stranger the unit's certificate
 * without purchaser, order or tag, and the buyer's address (a contact, or within its domains) the released
 * delivery's certificate; the page answers both the same. Real SMTP receives the emails.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailTransport, type MailTransport } from '../src/server/mail/transports';
import { createMailWorker, type MailWorker } from '../src/server/mail/worker';
import { Wakeup } from '../src/server/lib/wakeup';
import { releaseRound } from '../src/server/modules/orders/release-worker';
import { issueReport } from '../src/server/modules/reports/issue';
import { buildTestApp, type TestApp } from './helpers/app';
import { addCustomer, addDelivery, post, uniq } from './helpers/orders';
import { postRequest, requestBody } from './helpers/public';
import { tmpFile, unitWithRecords, type Unit } from './helpers/reports';
import { startSmtpSink, type SmtpSink } from './helpers/smtp-sink';

let sink: SmtpSink;
let t: TestApp;
let transport: MailTransport;
let worker: MailWorker;
let unit: Unit;
let customerName: string;
let contact: string;
const quiet = { info() {}, warn() {}, error() {} };

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await buildTestApp({ SMTP_URL: sink.url });
  transport = createMailTransport(t.config, quiet);
  worker = createMailWorker({ db: t.app.ctx.db, transport, log: quiet, retryPolicy: { baseDelayMs: 0, maxDelayMs: 0, jitter: 0 } });
  unit = await unitWithRecords(t, [{ testType: 'shell' }, { testType: 'seat' }]);
  contact = `qa-${uniq().toLowerCase()}@harbour.example`;
  customerName = `Harbour Refining ${uniq()}`;
  const c = await addCustomer(t.app, unit.admin, {
    name: customerName,
    emailDomains: ['harbour-group.example'],
    contacts: [{ name: 'QA', email: contact, language: 'en', receivesCertificates: true }],
  });
  const po = await post(t.app, unit.admin, '/api/v1/purchase-orders', {
    customerId: c.id,
    number: `PO-${uniq()}`,
    date: '2024-04-20',
    items: [{ line: 1, productId: unit.product.id, quantity: 1 }],
  });
  const d = await addDelivery(t.app, unit.admin, po.id);
  await post(t.app, unit.admin, `/api/v1/deliveries/${d.id}/serials`, { units: [{ serial: unit.serial, line: 1, tag: 'FV-7001' }] }, 200);
  const res = await t.app.inject({ method: 'POST', url: `/api/v1/deliveries/${d.id}/release`, headers: { cookie: unit.admin } });
  expect(res.statusCode).toBe(202);
  await releaseRound({
    db: t.app.ctx.db,
    issue: (db, input) => issueReport(db, { ...input, publicBaseUrl: t.app.ctx.config.publicBaseUrl }),
    sendLink: async () => {},
    wakeup: new Wakeup(),
    log: t.app.log,
    kickMail: () => {},
  });
}, 120_000);
afterAll(async () => {
  await worker.stop();
  await transport.close();
  await t.close();
  await sink.close();
});

/** The serial requested for `email`: the page's answer, and the text of the PDF the email carried. */
async function requested(email: string) {
  const before = sink.messages.length;
  const res = await postRequest(t.app, requestBody({ serial: unit.serial, email }));
  expect(res.statusCode).toBe(200);
  await worker.runOnce();
  const [mail] = await sink.waitFor(before + 1).then((all) => all.slice(before));
  const pdf = mail!.parsed!.attachments.find((a) => a.filename?.endsWith('.pdf'))!;
  const file = tmpFile(Buffer.from(pdf.content as ArrayBuffer));
  execFileSync('pdftotext', ['-layout', file, path.join(path.dirname(file), 'out.txt')]);
  return { page: res.json().data, text: fs.readFileSync(path.join(path.dirname(file), 'out.txt'), 'utf8') };
}

describe('who sees the order', () => {
  it('emails a stranger the certificate without purchaser, order or tag', async () => {
    const { text } = await requested(`someone-${uniq()}@elsewhere.example`);
    expect(text).toContain(unit.serial);
    expect(text).not.toContain(customerName);
    expect(text).not.toContain('FV-7001');
    expect(text).not.toContain('Purchaser');
  }, 60_000);

  it("emails the buyer's contact, and an address within its domains, the delivery's certificate", async () => {
    for (const email of [contact.toUpperCase(), `new-${uniq()}@harbour-group.example`]) {
      const { text } = await requested(email);
      expect(text).toContain(customerName);
      expect(text).toContain('FV-7001');
      expect(text).toContain('Purchaser');
    }
  }, 60_000);

  it("answers the page the same for a stranger and the buyer: the same certificate link, no order's", async () => {
    const stranger = await requested(`other-${uniq()}@elsewhere.example`);
    const buyer = await requested(contact);
    const shape = (d: { results: Array<Record<string, unknown>> }) =>
      d.results.map(({ serial, outcome, reportId, pdfPath, product }) => ({ serial, outcome, reportId, pdfPath, product }));
    expect(shape(buyer.page)).toEqual(shape(stranger.page));
  }, 60_000);
});
